import CX11
import GestureKit

/// Finds keycodes for keysym names, borrowing a spare keycode for a keysym the keymap lacks.
///
/// Keys are looked up in the keymap of the XTEST keyboard, through which the bridge sends
/// them, read afresh for each combination: X gives each keyboard a map of its own, and the
/// core keyboard's is the map of whichever keyboard typed last (a layout set for the physical
/// keyboard alone, in xorg.conf, is not the XTEST keyboard's). An application reads the key
/// in the map of the keyboard that sent it.
///
/// A borrowed keycode keeps its keysym until the bridge stops: an application looks the keysym
/// up in its copy of the keymap when it handles the event, which a busy one does seconds
/// later, and gets a changed mapping only through MappingNotify; a lend put back, or lent to
/// another keysym, meanwhile makes it read the key as nothing, or as the other key. So each
/// keysym keeps its keycode, and a keycode is lent again only when no spare one is left, the
/// one unused longest. A keymap loaded meanwhile (`setxkbmap`) takes lends back by itself: the
/// bridge then forgets them, and writes nothing over what the new keymap put there.
public final class KeyboardMapping {
    /// The keycodes to hold down, in order, for one combination.
    public struct Chord: Sendable, Hashable {
        public var keycodes: [UInt8]
        /// Those of `keycodes` that set a modifier while held (not a lock: Caps Lock, Num Lock),
        /// with the modifier bits each sets.
        public var modifiers: [UInt8: UInt32] = [:]
    }

    private struct Borrowed {
        var keycode: UInt8
        var lastUsed: Double
    }

    private let connection: XConnection
    private var borrowed: [KeySym: Borrowed] = [:]

    public init(connection: XConnection) {
        self.connection = connection
    }

    /// The keycodes for `combo`, Shift added for a keysym that a key types with Shift.
    public func chord(for combo: KeyCombo, now: Double) throws(ActionFailure) -> Chord {
        let keymap = SendingKeymap(connection.display)
        var chord = Chord(keycodes: [])
        let names = combo.keysymNames
        let shiftNamed = names.contains { $0 == "Shift_L" || $0 == "Shift_R" }
        for name in names {
            let keysym = try Self.keysym(named: name, in: combo)
            let (keycode, shifted) = try keycode(for: keysym, name: name, in: keymap, now: now)
            if shifted && !shiftNamed, let shift = try? self.keycode(for: KeySym(XK_Shift_L), name: "Shift_L", in: keymap, now: now).0,
               !chord.keycodes.contains(shift) {
                chord.keycodes.append(shift)
                chord.modifiers[shift] = UInt32(ShiftMask)
            }
            guard !chord.keycodes.contains(keycode) else { continue }
            chord.keycodes.append(keycode)
            if Self.isModifier(keysym), !Self.isLock(keysym) {
                let bits = XkbKeysymToModifiers(connection.display, keysym)
                if bits != 0 { chord.modifiers[keycode] = UInt32(bits) }
            }
        }
        return chord
    }

    /// The keysym for a name as X spells it, also accepting a lower-case first letter
    /// (`left`, `escape`) since names are case-sensitive and people write them either way.
    static func keysym(named name: String, in combo: KeyCombo) throws(ActionFailure) -> KeySym {
        if let keysym = keysym(named: name) { return keysym }
        throw ActionFailure("unknown key \"\(name)\" in \"\(combo)\"; use X keysym names such as ctrl+z, Return, XF86AudioRaiseVolume (`xev` shows them)")
    }

    /// The keysym for a name, as above; nil when X knows none by it. Xlib's table: no display
    /// needed. Only an ASCII first letter is tried in capitals: found in review of a Turkish
    /// locale, `ctrl+ı` became the `I` X knows and was sent as Ctrl+Shift+I, which opens a
    /// browser's developer tools (a character is named by its code point, `U0131`, as `check`
    /// suggests).
    static func keysym(named name: String) -> KeySym? {
        let exact = XStringToKeysym(name)
        if exact != 0 { return exact }
        if let first = name.first, first.isASCII, first.isLowercase {
            let capitalized = XStringToKeysym(first.uppercased() + name.dropFirst())
            if capitalized != 0 { return capitalized }
        }
        return nil
    }

    private func keycode(for keysym: KeySym, name: String, in keymap: borrowing SendingKeymap,
                         now: Double) throws(ActionFailure) -> (UInt8, shifted: Bool) {
        // A real key that types it in the layout in use first, whatever was lent for another
        // layout: a program that reads keycodes (a VM viewer, an RDP client, a game) takes a
        // spare keycode for no key at all. The lend stays the keysym's, for the next time no
        // key types it.
        let typing = typingKeycode(for: keysym, in: keymap)
        if let typing, borrowed[keysym]?.keycode != typing.0 { return typing }
        if var entry = borrowed[keysym] {
            // A keymap loaded since took it back.
            if keymap.holds(keysym, on: entry.keycode) != false {
                entry.lastUsed = now
                borrowed[keysym] = entry
                return (entry.keycode, false)
            }
            borrowed[keysym] = nil
        }
        if let typing { return typing }
        return (try borrow(keysym, name: name, in: keymap, now: now), false)
    }

    /// The key that types `keysym` in the keyboard group (layout) in use now, with the locks
    /// on now (NumLock; Caps Lock aside, which applications set aside for shortcuts), and
    /// whether it needs Shift: the first that types it alone, else the first that types it with
    /// Shift. Nil when no key does: it sits on an AltGr level, or only in another layout (`z`
    /// while a German layout follows a US one is another key), or on a keypad level NumLock
    /// chooses; a borrowed key types it then. A modifier is its key, whatever level it sits on:
    /// what it does comes from the key, and Shift added would be one more modifier held.
    private func typingKeycode(for keysym: KeySym, in keymap: borrowing SendingKeymap) -> (UInt8, shifted: Bool)? {
        var state = XkbStateRec()
        let known = XkbGetState(connection.display, UInt32(XkbUseCoreKbd), &state) == Success
        let group = known ? UInt32(state.group) : 0
        let locks = known ? UInt32(state.locked_mods) & ~UInt32(LockMask) : 0
        let modifier = Self.isModifier(keysym)
        for added in [0, UInt32(ShiftMask)] {
            for keycode in keymap.keycodes {
                if modifier {
                    if keymap.holds(keysym, on: keycode, group: Int(group)) == true { return (keycode, false) }
                } else if keymap.translate(keycode, state: group << 13 | locks | added) == keysym {
                    return (keycode, added != 0)
                }
            }
            if modifier { return nil }
        }
        return nil
    }

    /// A key that locks or unlocks a modifier or group as it is pressed (Caps Lock, Num Lock):
    /// not one that sets a modifier while held, which Sticky Keys latches.
    static func isLock(_ keysym: KeySym) -> Bool {
        [XK_Caps_Lock, XK_Shift_Lock, XK_Num_Lock, XK_ISO_Lock, XK_ISO_Level3_Lock, XK_ISO_Level5_Lock, XK_ISO_Group_Lock]
            .contains { KeySym($0) == keysym }
    }

    /// Xlib's `IsModifierKey`, a macro Swift does not import.
    static func isModifier(_ keysym: KeySym) -> Bool {
        (KeySym(XK_Shift_L)...KeySym(XK_Hyper_R)).contains(keysym) || (KeySym(XK_ISO_Lock)...KeySym(XK_ISO_Level5_Lock)).contains(keysym)
            || keysym == KeySym(XK_Mode_switch) || keysym == KeySym(XK_Num_Lock)
    }

    private func borrow(_ keysym: KeySym, name: String, in keymap: borrowing SendingKeymap, now: Double) throws(ActionFailure) -> UInt8 {
        guard let keycode = spareKeycode(in: keymap) ?? leastRecentlyLent() else {
            throw ActionFailure("\"\(name)\" is not on the keyboard map and no spare keycode is left to put it on")
        }
        var symbols: [KeySym] = [keysym, keysym]
        XChangeKeyboardMapping(connection.display, Int32(keycode), 2, &symbols, 1)
        borrowed[keysym] = Borrowed(keycode: keycode, lastUsed: now)
        return keycode
    }

    /// The highest keycode with no keysym at all, in the core keyboard's map and the XTEST
    /// keyboard's (the lend changes every keyboard's): the low ones are real keys' places.
    private func spareKeycode(in keymap: borrowing SendingKeymap) -> UInt8? {
        var minimum: Int32 = 0
        var maximum: Int32 = 0
        XDisplayKeycodes(connection.display, &minimum, &maximum)
        guard maximum >= minimum, minimum > 0 else { return nil }
        var perKeycode: Int32 = 0
        let count = maximum - minimum + 1
        guard let symbols = XGetKeyboardMapping(connection.display, UInt8(clamping: minimum), count, &perKeycode) else { return nil }
        defer { XFree(symbols) }
        let inUse = Set(borrowed.values.map(\.keycode))
        var keycode = maximum
        while keycode >= minimum {
            let row = Int(keycode - minimum) * Int(perKeycode)
            let empty = (0..<Int(perKeycode)).allSatisfy { symbols[row + $0] == 0 }
            if empty, let code = UInt8(exactly: keycode), !inUse.contains(code), keymap.isEmpty(code) { return code }
            keycode -= 1
        }
        return nil
    }

    /// Every spare keycode lent already: the lend unused the longest is taken back for another.
    private func leastRecentlyLent() -> UInt8? {
        guard let (keysym, entry) = borrowed.min(by: { $0.value.lastUsed < $1.value.lastUsed }) else { return nil }
        borrowed[keysym] = nil
        return entry.keycode
    }

    /// Puts every borrowed keycode back: the bridge stops.
    public func restoreAll() {
        guard !borrowed.isEmpty else { return }
        let keymap = SendingKeymap(connection.display)
        for (keysym, entry) in borrowed { unmap(entry.keycode, holding: keysym, in: keymap) }
        borrowed.removeAll()
    }

    /// Empties a borrowed keycode, unless a keymap loaded since holds something else there.
    private func unmap(_ keycode: UInt8, holding keysym: KeySym, in keymap: borrowing SendingKeymap) {
        guard keymap.holds(keysym, on: keycode) != false else { return }
        var symbols: [KeySym] = [0, 0]
        XChangeKeyboardMapping(connection.display, Int32(keycode), 2, &symbols, 1)
    }
}

/// The XTEST keyboard's keymap as XKB has it now: its key types and symbols. Nil inside when
/// the server gave none (no XKB, no XTEST keyboard): the lookups then answer from the core
/// keyboard's map, as Xlib keeps it.
struct SendingKeymap: ~Copyable {
    private let display: OpaquePointer
    private let xkb: XkbDescPtr?

    init(_ display: OpaquePointer) {
        self.display = display
        xkb = Self.xtestKeyboard(display).flatMap {
            XkbGetMap(display, UInt32(XkbKeyTypesMask | XkbKeySymsMask), UInt32($0))
        }
    }

    deinit {
        if let xkb { XkbFreeKeyboard(xkb, 0, 1) }
    }

    /// The keycodes the map has, lowest first.
    var keycodes: ClosedRange<UInt8> {
        if let xkb, xkb.pointee.min_key_code <= xkb.pointee.max_key_code {
            return xkb.pointee.min_key_code...xkb.pointee.max_key_code
        }
        var minimum: Int32 = 0
        var maximum: Int32 = 0
        XDisplayKeycodes(display, &minimum, &maximum)
        guard let low = UInt8(exactly: minimum), let high = UInt8(exactly: maximum), low <= high else { return 8...8 }
        return low...high
    }

    /// The keysym `keycode` gives with the modifiers and group of the core state `state`
    /// (the group in bits 13-14); 0 for none.
    func translate(_ keycode: UInt8, state: UInt32) -> KeySym {
        var consumed: UInt32 = 0
        var keysym: KeySym = 0
        if let xkb {
            return XkbTranslateKeyCode(xkb, keycode, state, &consumed, &keysym) != 0 ? keysym : 0
        }
        return XkbLookupKeySym(display, keycode, state, &consumed, &keysym) != 0 ? keysym : 0
    }

    /// Whether `keycode` has `keysym` on any level of `group` (its first group, for a key with
    /// fewer), or of any group when nil; nil when the map is not known.
    func holds(_ keysym: KeySym, on keycode: UInt8, group: Int? = nil) -> Bool? {
        guard let symbols = symbols(of: keycode) else {
            // Without the XTEST keyboard's map, the core keyboard's as Xlib keeps it.
            guard xkb == nil, let group else { return nil }
            return (0..<4).contains { XkbKeycodeToKeysym(display, keycode, Int32(group), $0) == keysym }
                || (0..<4).contains { XkbKeycodeToKeysym(display, keycode, 0, $0) == keysym }
        }
        guard let group, symbols.groups > 0 else { return symbols.all.contains(keysym) }
        let chosen = group < symbols.groups ? group : 0
        return symbols.all[(chosen * symbols.width)..<((chosen + 1) * symbols.width)].contains(keysym)
    }

    /// Whether `keycode` has no symbol at all; true when the map is not known (the core map decides).
    func isEmpty(_ keycode: UInt8) -> Bool {
        symbols(of: keycode)?.all.allSatisfy { $0 == 0 } ?? true
    }

    private func symbols(of keycode: UInt8) -> (groups: Int, width: Int, all: [KeySym])? {
        guard let xkb, let map = xkb.pointee.map, let symbolMap = map.pointee.key_sym_map, let syms = map.pointee.syms,
              keycode >= xkb.pointee.min_key_code, keycode <= xkb.pointee.max_key_code else { return nil }
        let entry = symbolMap[Int(keycode)]
        let groups = Int(entry.group_info & 0x0f), width = Int(entry.width)
        let count = groups * width
        guard Int(entry.offset) + count <= Int(map.pointee.num_syms) else { return nil }
        return (groups, width, (0..<count).map { syms[Int(entry.offset) + $0] })
    }

    /// The id of the core keyboard's XTEST device, through which `XTestFakeKeyEvent` types.
    private static func xtestKeyboard(_ display: OpaquePointer) -> Int32? {
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display, XIAllDevices, &count) else { return nil }
        defer { XIFreeDeviceInfo(devices) }
        for index in 0..<Int(max(0, count)) {
            let device = devices[index]
            guard device.use == XISlaveKeyboard, let name = device.name else { continue }
            if String(cString: name).hasSuffix("XTEST keyboard"), device.attachment == 3 { return device.deviceid }
        }
        return nil
    }
}

/// The key names X knows, as `KeyboardMapping` reads them (a lower-case first letter too): what
/// a config's `{key: ...}` may name, checked as the config is read (`check`, `run`, a reload).
public struct XKeysymNames: KeyNames {
    public init() {}

    public func knows(_ name: String) -> Bool {
        KeyboardMapping.keysym(named: name) != nil
    }
}
