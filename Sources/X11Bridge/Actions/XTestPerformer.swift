import CX11
import GestureKit

/// Sends the bound actions as real input through XTest, and runs commands.
///
/// Button actions first move the pointer to where the gesture is, so the click lands on the
/// window under the pen or finger; keys go to the focused window and commands need no place.
/// Every press is recorded in `held` until its release, so `releaseAll()` can let go of
/// anything, whatever stopped the gesture.
public final class XTestPerformer: ActionPerformer {
    private let connection: XConnection
    private let keyboard: KeyboardMapping
    private let launcher: CommandLauncher
    private let volume: VolumeControl
    public private(set) var held = HeldInputs()
    /// Per logical button held down, the XTEST pointer's button that was pressed for it: its
    /// release lets go of that one even if the maps changed meanwhile.
    private var pressedAs: [Int: Int] = [:]
    /// Key chords as the keyboard's AccessX settings time them.
    private var strokes = KeyStrokes()

    /// `commandReport` hears how a launched command failed (a non-zero exit, a signal);
    /// `volume` changes the sound volume for `{volume: ...}` actions.
    public init(connection: XConnection, commandReport: @escaping (CommandFailure) -> Void = { _ in },
                volume: VolumeControl = VolumeControl()) {
        self.connection = connection
        self.launcher = CommandLauncher(report: commandReport)
        self.volume = volume
        self.keyboard = KeyboardMapping(connection: connection)
    }

    /// X keeps what a client pressed through XTest down after the client is gone: a bridge
    /// killed during a `press:` drag leaves its button held (the application keeps its grab,
    /// and a pen has no middle button to let it go). So the buttons the bridge holds are
    /// written on the root window as it presses and lets go of them (`publishHeld`), and a
    /// bridge starting lets go of those a bridge before it left there, and of no other: the
    /// XTEST pointer is every XTest client's and MouseKeys', and a button an on-screen
    /// keyboard's drag or a MouseKeys lock holds is theirs. `buttonCount` bounds them (one
    /// beyond the device's is an X error).
    public func releaseLeftovers(xtestPointer: (id: Int, buttonCount: Int)?) {
        self.xtestPointer = xtestPointer?.id
        let left = HeldMark.buttons.read(on: connection)
        HeldMark.buttons.clear(on: connection)
        let buttonCount = min(xtestPointer?.buttonCount ?? 0, 255)
        for button in left where button >= 1 && button <= buttonCount {
            XTestFakeButtonEvent(connection.display, UInt32(button), 0, 0)
        }
        // The keys of a chord Slow Keys spread over time, the same way (X's keycodes are 8-255).
        let keys = HeldMark.keys.read(on: connection)
        HeldMark.keys.clear(on: connection)
        for keycode in keys where keycode >= 8 {
            XTestFakeKeyEvent(connection.display, UInt32(keycode), 0, 0)
        }
        connection.flush()
    }

    /// X's XTEST pointer, whose buttons the bridge presses, and every other XTest client and
    /// MouseKeys too; nil until `releaseLeftovers` tells it.
    private var xtestPointer: Int?

    /// Refuses to press `button` when another program holds it through XTest (a MouseKeys
    /// button lock, an on-screen keyboard's drag): X drops a second press of a button the
    /// device holds, and the release after it would let go of theirs.
    private func checkNotHeldByAnother(_ button: Int) throws(ActionFailure) {
        guard let xtestPointer, let down = connection.buttonsDown(device: xtestPointer) else { return }
        let physical = connection.outputButtons.physical(of: button) ?? button
        guard down.contains(physical), !pressedAs.values.contains(physical) else { return }
        throw ActionFailure("button \(button) is held down by another program through XTest (a MouseKeys button lock, an on-screen keyboard's drag): a click now would let go of it, so none is sent (if no program should hold it, `xdotool mouseup \(physical)` lets go of it)")
    }

    /// The XTEST pointer's buttons and keyboard's keycodes last written on the root window as held.
    private var published: (buttons: [Int], keys: [Int]) = ([], [])

    /// Writes the XTEST pointer's buttons and the XTEST keyboard's keys the bridge holds on the
    /// root window when they changed, in the same stream as the presses and releases, so a
    /// bridge killed between any two requests leaves a mark that names exactly what it left held.
    private func publishHeld() {
        let buttons = pressedAs.values.sorted()
        if buttons != published.buttons {
            HeldMark.buttons.write(buttons, on: connection)
            published.buttons = buttons
        }
        let keys = held.inputs.compactMap { input -> Int? in
            if case .keycode(let keycode) = input { return Int(keycode) } else { return nil }
        }.sorted()
        if keys != published.keys {
            HeldMark.keys.write(keys, on: connection)
            published.keys = keys
        }
    }

    public func perform(_ event: ActionEvent, now: Double) throws(ActionFailure) {
        defer {
            publishHeld()
            connection.flush()
        }
        let holder = HeldInputs.Holder(event)
        switch event.action {
        case .click(let button):
            try Self.check(button)
            try checkNotHeldByAnother(button)
            move(to: event.position)
            send(.button(button), down: true)
            send(.button(button), down: false)
            held.forget(.button(button))
        case .press(let button):
            try Self.check(button)
            try checkNotHeldByAnother(button)
            move(to: event.position)
            if held.press(.button(button), by: holder) { send(.button(button), down: true) }
        case .release(let button):
            try Self.check(button)
            move(to: event.position)
            // A release for a button this bridge did not press would reach the application as
            // a stray release; the person's own buttons are not the bridge's to let go.
            if held.release(.button(button), by: holder) { send(.button(button), down: false) }
        case .scroll(let direction, let steps):
            move(to: event.position)
            for _ in 0..<max(0, steps) {
                send(.button(direction.button), down: true)
                send(.button(direction.button), down: false)
            }
        case .key(let combo):
            // Before any keycode is lent for it, and once what is due has gone.
            sendKeys(dueBy: now)
            guard !strokes.isFull(for: event.gesture, at: now) else {
                throw ActionFailure("not typed: \(strokes.waiting(of: event.gesture, before: now)) earlier key actions of \(event.gesture) still wait for the keyboard's Slow Keys or Bounce Keys delay (AccessX accessibility settings), and more would go on typing long after the gesture; a knob bound to keys turns faster than they can be typed")
            }
            let chord = try keyboard.chord(for: combo, now: now)
            strokes.add(chord.keycodes, modifiers: chord.modifiers, by: holder, timing: KeyStrokes.Timing.read(connection.display), at: now)
            sendKeys(dueBy: now)
        case .command(let argv):
            try launcher.launch(argv, for: event.gesture, now: now)
        case .volume(let change):
            volume.request(change, for: event, now: now)
        }
    }

    /// Presses and lets go of the key chords due by `now` (`KeyStrokes`).
    private func sendKeys(dueBy now: Double) {
        for step in strokes.due(at: now) {
            switch step {
            case .press(let keycodes, let holder):
                // A key the person holds already (Ctrl, while a gesture sends ctrl+z) is theirs:
                // X drops a second press of it, and a release would let go of it under their
                // finger (X keeps no count of which keyboard holds a key), so it is neither.
                let down = connection.keysDown()
                for keycode in keycodes where !down.contains(keycode) && held.press(.keycode(keycode), by: holder) {
                    send(.keycode(keycode), down: true)
                }
            case .latch(let keycode, let mask, let holder):
                // Asked now, not when queued: a chord before it (Slow Keys' delays) may have used
                // the person's latch up. One round trip, after what was sent before it.
                guard connection.latchedAndLockedModifiers() & mask == 0, !connection.keysDown().contains(keycode),
                      held.press(.keycode(keycode), by: holder) else { continue }
                send(.keycode(keycode), down: true)
            case .release(let keycodes, let holder):
                for keycode in keycodes.reversed() where held.release(.keycode(keycode), by: holder) {
                    send(.keycode(keycode), down: false)
                }
            }
        }
    }

    private static func check(_ button: Int) throws(ActionFailure) {
        guard Action.buttons.contains(button) else {
            throw ActionFailure("button \(button) does not exist; X buttons are 1 (left), 2 (middle), 3 (right), 4-7 (scrolling), 8 and 9 (back, forward)")
        }
    }

    private func move(to point: Point) {
        guard point.x.isFinite, point.y.isFinite else { return }
        XTestFakeMotionEvent(connection.display, -1, Int32(point.x.rounded()), Int32(point.y.rounded()), 0)
    }

    private func send(_ input: HeldInputs.Input, down: Bool) {
        switch input {
        case .button(let button):
            // The button named is what the application gets: XTest presses a physical button
            // of the XTEST pointer, which its own map and its master's (a left-handed
            // `pointer = 3 2 1`) turn into another (`XConnection.outputButtons`).
            let mapped = connection.outputButtons.physical(of: button) ?? button
            let physical = down ? mapped : pressedAs.removeValue(forKey: button) ?? mapped
            if down { pressedAs[button] = physical }
            XTestFakeButtonEvent(connection.display, UInt32(physical), down ? 1 : 0, 0)
        case .keycode(let keycode):
            XTestFakeKeyEvent(connection.display, UInt32(keycode), down ? 1 : 0, 0)
        }
    }

    /// Anything held down, or a key chord still to come (waiting out Bounce Keys' delay): let
    /// go of, it is dropped.
    public var isHolding: Bool { !held.isEmpty || strokes.nextDeadline != nil }

    public func follow(_ contact: ContactKey, to point: Point) {
        guard held.holdsButton(for: contact), point.x.isFinite, point.y.isFinite else { return }
        // A warp of the pointer, not a motion of the XTEST device: moved by another of its
        // devices while the finger's touch is down, the master would keep the button it
        // emulates for that touch down once it is handed back (a bridge killed mid-drag).
        XWarpPointer(connection.display, 0, connection.root, 0, 0, 0, 0, Int32(point.x.rounded()), Int32(point.y.rounded()))
        connection.flush()
    }

    public var holdsButton: Bool {
        held.inputs.contains { if case .button = $0 { return true } else { return false } }
    }

    public func releaseButtons(where isStranded: (_ button: Int, _ holders: Set<ContactKey>) -> Bool) -> [Int] {
        let stranded = held.inputs.reversed().compactMap { input -> Int? in
            guard case .button(let button) = input, isStranded(button, held.contacts(holding: input)) else { return nil }
            return button
        }
        guard !stranded.isEmpty else { return [] }
        for button in stranded {
            held.forget(.button(button))
            send(.button(button), down: false)
        }
        publishHeld()
        connection.flush()
        return stranded
    }

    public func releaseAll() {
        strokes.removeAll()
        let inputs = held.takeAllForRelease()
        guard !inputs.isEmpty else { return }
        for input in inputs { send(input, down: false) }
        publishHeld()
        connection.flush()
    }

    public var nextDeadline: Double? {
        // Asked on every wakeup: no array for three optionals.
        func earlier(_ a: Double?, _ b: Double?) -> Double? { a.map { first in b.map { min(first, $0) } ?? first } ?? b }
        return earlier(earlier(strokes.nextDeadline, launcher.nextDeadline), volume.nextDeadline)
    }

    public func tick(now: Double) {
        sendKeys(dueBy: now)
        publishHeld()
        launcher.tick(now: now)
        volume.tick(now: now)
        connection.flush()
    }

    public var descriptors: [Int32] { launcher.descriptors + volume.descriptors }

    public func descriptorReady(_ descriptor: Int32) {
        launcher.descriptorReady(descriptor)
        volume.descriptorReady(descriptor)
    }

    public func takeVolumeReports() -> [VolumeReport] { volume.takeReports() }

    public func shutdown() {
        releaseAll()
        keyboard.restoreAll()
        launcher.shutdown()
        volume.shutdown()
        connection.flush()
    }
}
