import CX11

/// When the keys of key actions go down and come up, as the keyboard's AccessX settings ask:
/// the server applies them to the XTEST keyboard the bridge types through as to any keyboard.
/// With SlowKeys on (for a hand that presses keys by mistake), a key counts only once held
/// `slowKeys` seconds, and only one key at a time (a second key pressed meanwhile cancels the
/// first), so a chord's keys go down one after another, each held past the delay, and come up
/// together; with BounceKeys on (for a hand that presses a key twice), a key pressed again
/// within `debounce` seconds of its release is dropped, so a chord with a key let go that
/// recently waits (an undo knob turned back and forth sends Ctrl again and again: dropped, the
/// next letter would arrive bare). With Sticky Keys on and set to go off when two keys are
/// pressed together (GNOME's setting), a chord's modifiers are pressed and let go one at a time
/// first, each latched, and the rest pressed after them, as a person using Sticky Keys types
/// it: pressed together, they would turn Sticky Keys off; a modifier latched or locked already
/// when its turn comes is left so (pressed again, Sticky Keys would lock it, or let go of its
/// lock). Without any of these, a chord is pressed and let go at once. Chords go in the order
/// asked, and only a few of one binding's wait (`waitingLimit`): a knob bound to keys turns
/// faster than Slow Keys lets them be typed, and a backlog of its chords would go on typing for
/// seconds after the hand stopped, into whatever the person types meanwhile.
///
/// A value with no X calls: the performer reads the settings and the latches, and sends the steps.
struct KeyStrokes {
    /// The keyboard's AccessX timing: nil where the control is off.
    struct Timing: Sendable, Hashable {
        var slowKeys: Double?
        var debounce: Double?
        /// Sticky Keys is on, and two keys pressed together turn it off: modifiers are latched.
        var latchesModifiers = false

        static let none = Timing(slowKeys: nil, debounce: nil)

        /// The core keyboard's, as the server has them now (one round trip); `none` when XKB
        /// cannot say.
        static func read(_ display: OpaquePointer) -> Timing {
            guard let xkb = XkbAllocKeyboard() else { return .none }
            defer { XkbFreeKeyboard(xkb, 0, 1) }
            guard XkbGetControls(display, UInt(XkbAllControlsMask), xkb) == Success, let controls = xkb.pointee.ctrls else {
                return .none
            }
            let enabled = controls.pointee.enabled_ctrls
            return Timing(slowKeys: enabled & UInt32(XkbSlowKeysMask) != 0 ? Double(controls.pointee.slow_keys_delay) / 1000 : nil,
                          debounce: enabled & UInt32(XkbBounceKeysMask) != 0 ? Double(controls.pointee.debounce_delay) / 1000 : nil,
                          latchesModifiers: enabled & UInt32(XkbStickyKeysMask) != 0
                              && controls.pointee.ax_options & UInt16(XkbAX_TwoKeysMask) != 0)
        }
    }

    /// What the performer sends, in order.
    enum Step: Equatable {
        case press([UInt8], by: HeldInputs.Holder)
        /// A modifier's key pressed to latch it, unless its mask is latched or locked already
        /// when the steps before it have reached the server: a latch the last key used is gone
        /// by then, a person's own stays. Its release comes as for any key.
        case latch(UInt8, unlessSet: UInt32, by: HeldInputs.Holder)
        case release([UInt8], by: HeldInputs.Holder)
    }

    /// Beyond each delay, for the server's clock and ours to disagree by a little.
    static let margin = 0.02

    private struct Chord {
        var keycodes: [UInt8]
        var holder: HeldInputs.Holder
        var timing: Timing
        /// When it was asked for: it is not pressed sooner.
        var asked: Double
        /// Which `add` it came from: a chord latching its modifiers is several of these.
        var action: Int
        /// A modifier latched alone: its mask (`Step.latch`).
        var latches: UInt32?
        /// How many of its keys are down.
        var pressed = 0
        /// Once its first key is down: when the next step is due (a key, or the release).
        var nextAt: Double?
    }

    private var chords: [Chord] = []
    /// When each key was last let go.
    private var released: [UInt8: Double] = [:]
    /// The `add`s so far.
    private var added = 0

    /// How many of one binding's turns may wait behind the chord being typed, each the key
    /// actions it asked for at one moment (a deep press's list of keys is one turn, a knob's
    /// every step another). Each chord waits out Slow Keys' delay for every key (0.3 s is usual,
    /// so some 0.6 s for ctrl+z) or Bounce Keys' since its key's last release: two keep a knob's
    /// last steps within a second or two of the hand.
    static let waitingLimit = 2

    /// The turns of `binding` waiting, none of their keys pressed yet, not counting the chord
    /// being typed nor what it asks for `now` (its list's other keys).
    func waiting(of binding: String, before now: Double) -> Int {
        Set(chords.filter { $0.pressed == 0 && $0.action != chords.first?.action && $0.holder.gesture == binding && $0.asked < now }
            .map(\.asked)).count
    }

    /// Whether a key action `binding` asks for `now` would wait beyond `waitingLimit`: it is
    /// dropped instead. Found in review: counted over every binding, a deep press's fourth key,
    /// or a key of another gesture behind a knob's, was dropped.
    func isFull(for binding: String, at now: Double) -> Bool { waiting(of: binding, before: now) >= Self.waitingLimit }

    /// A chord to press and let go, once those before it are done; `modifiers`: which of its
    /// keys are modifiers, and their masks, latched one at a time where `timing` says so.
    /// Callers ask `isFull` first.
    mutating func add(_ keycodes: [UInt8], modifiers: [UInt8: UInt32] = [:], by holder: HeldInputs.Holder, timing: Timing,
                      at now: Double) {
        added += 1
        guard timing.latchesModifiers else {
            chords.append(Chord(keycodes: keycodes, holder: holder, timing: timing, asked: now, action: added))
            return
        }
        for key in keycodes {
            guard let mask = modifiers[key] else { continue }
            chords.append(Chord(keycodes: [key], holder: holder, timing: timing, asked: now, action: added, latches: mask))
        }
        let rest = keycodes.filter { modifiers[$0] == nil }
        if !rest.isEmpty { chords.append(Chord(keycodes: rest, holder: holder, timing: timing, asked: now, action: added)) }
    }

    /// When the first chord waiting is pressed: after it was asked for and, with BounceKeys
    /// on, once none of its keys was let go within the debounce delay.
    private func pressTime(of chord: Chord) -> Double {
        guard let debounce = chord.timing.debounce else { return chord.asked }
        return chord.keycodes.reduce(chord.asked) { latest, key in
            released[key].map { max(latest, $0 + debounce + Self.margin) } ?? latest
        }
    }

    /// The steps due by `now`, in order.
    mutating func due(at now: Double) -> [Step] {
        var steps: [Step] = []
        while !chords.isEmpty {
            // Changed in place: the first chord's keys go down as they are due.
            while chords[0].pressed < chords[0].keycodes.count {
                let chord = chords[0]
                guard (chord.nextAt ?? pressTime(of: chord)) <= now else { return steps }
                if let mask = chord.latches {
                    steps.append(.latch(chord.keycodes[0], unlessSet: mask, by: chord.holder))
                    chords[0].pressed = 1
                    chords[0].nextAt = now + (chord.timing.slowKeys.map { $0 + Self.margin } ?? 0)
                    continue
                }
                if let slowKeys = chord.timing.slowKeys {
                    steps.append(.press([chord.keycodes[chord.pressed]], by: chord.holder))
                    chords[0].pressed += 1
                    chords[0].nextAt = now + slowKeys + Self.margin
                } else {
                    steps.append(.press(Array(chord.keycodes[chord.pressed...]), by: chord.holder))
                    chords[0].pressed = chord.keycodes.count
                    chords[0].nextAt = now
                }
            }
            let chord = chords[0]
            guard let releaseAt = chord.nextAt, releaseAt <= now else { return steps }
            steps.append(.release(chord.keycodes, by: chord.holder))
            for key in chord.keycodes { released[key] = now }
            chords.removeFirst()
        }
        return steps
    }

    /// When the next step is due; nil when no chord waits.
    var nextDeadline: Double? {
        guard let first = chords.first else { return nil }
        return first.nextAt ?? pressTime(of: first)
    }

    /// Drops every chord: those pressed are let go with the rest of what is held.
    mutating func removeAll() {
        chords.removeAll()
    }
}
