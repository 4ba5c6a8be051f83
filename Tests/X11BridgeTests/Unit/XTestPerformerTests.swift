import CX11
import Foundation
import GestureKit
import Testing
@testable import X11Bridge

@Suite("XTest sends real input and lets go of it", .requiresXvfb, .serialized)
final class XTestPerformerTests: XvfbSuite {
    static func action(_ action: Action, at point: Point = Point(x: 100, y: 120)) -> ActionEvent {
        ActionEvent(time: 0, gesture: "test", contact: ContactKey(device: 6, contact: 0), action: action, position: point)
    }

    @Test("a held press shows on the pointer until releaseAll")
    func releaseAll() throws {
        let performer = XTestPerformer(connection: connection)
        try performer.perform(Self.action(.press(button: 2), at: Point(x: 300, y: 200)), now: 0)
        connection.sync()
        let held = try #require(connection.queryPointer(master: 2))
        #expect(held.buttons == [2])
        #expect(held.position == Point(x: 300, y: 200))
        #expect(performer.isHolding)
        performer.releaseAll()
        connection.sync()
        #expect(connection.queryPointer(master: 2)?.buttons == [])
        #expect(!performer.isHolding)
    }

    /// Found by a review of the mark's day: with no XTEST pointer found, the buttons it may
    /// name made the range 1...0, which traps.
    @Test("a mark a killed bridge left, read where no XTEST pointer is found: nothing is released, the mark goes, nothing traps")
    func leftoversWithoutXTestPointer() throws {
        let performer = XTestPerformer(connection: connection)
        for pointer in [nil, (id: 4, buttonCount: 0)] as [(id: Int, buttonCount: Int)?] {
            HeldMark.buttons.write([3], on: connection)
            connection.sync()
            #expect(HeldMark.buttons.read(on: connection) == [3])
            performer.releaseLeftovers(xtestPointer: pointer)
            connection.sync()
            #expect(HeldMark.buttons.read(on: connection) == [])
            #expect(connection.queryPointer(master: 2)?.buttons == [])
        }
    }

    @Test("a click and a key combination leave nothing held")
    func clickAndKeys() throws {
        let performer = XTestPerformer(connection: connection)
        try performer.perform(Self.action(.click(button: 3)), now: 0)
        try performer.perform(Self.action(.key(KeyCombo(keys: ["ctrl", "shift", "z"]))), now: 0)
        try performer.perform(Self.action(.scroll(.down, steps: 3)), now: 0)
        connection.sync()
        #expect(!performer.isHolding)
        #expect(connection.queryPointer(master: 2)?.buttons == [])
        #expect(connection.takeErrors().isEmpty)
    }

    @Test("an unknown key name is an error that names it")
    func unknownKey() throws {
        let performer = XTestPerformer(connection: connection)
        do {
            try performer.perform(Self.action(.key(KeyCombo(keys: ["ctrl", "Frobnicate"]))), now: 0)
            Issue.record("an unknown key was sent")
        } catch {
            #expect(error.message.contains("Frobnicate"))
        }
        #expect(!performer.isHolding)
        #expect(throws: ActionFailure.self) { try performer.perform(Self.action(.click(button: 0)), now: 0) }
    }

    @Test("a keysym missing from the keymap borrows a spare keycode, kept while the bridge runs and given back when it stops")
    func borrowedKeycode() throws {
        let keysym = XStringToKeysym("Thai_ngongu")
        #expect(XKeysymToKeycode(connection.display, keysym) == 0)
        let performer = XTestPerformer(connection: connection)
        try performer.perform(Self.action(.key(KeyCombo(keys: ["Thai_ngongu"]))), now: 10)
        connection.sync()
        // As the server has the map now (Xlib's copy on this connection is read once).
        let keycode = try #require((8...255).map { UInt8($0) }.first { symbol(of: $0) == keysym })
        performer.tick(now: 100)
        connection.sync()
        #expect(symbol(of: keycode) == keysym, "an application may read the key long after")
        #expect(performer.nextDeadline == nil, "nothing to wake for")
        performer.shutdown()
        connection.sync()
        #expect(symbol(of: keycode) == 0)
    }

    /// An application's own connection that takes the keys (focus on the root, which it
    /// selects), its keymap loaded, as one that has typed before.
    func application() throws -> OpaquePointer {
        let application = try #require(XOpenDisplay(server.displayName))
        XSelectInput(application, XDefaultRootWindow(application), KeyPressMask | KeyReleaseMask)
        var modifiers: UInt32 = 0
        var keysym: KeySym = 0
        _ = XkbLookupKeySym(application, 38, 0, &modifiers, &keysym)
        XSync(application, 0)
        return application
    }

    /// The keysyms of the next `count` key presses as the application looks them up now,
    /// when it gets to them; what came within `timeout` seconds.
    func keysymsRead(by application: OpaquePointer, count: Int, timeout: Double = 3) -> [String] {
        var names: [String] = []
        var event = XEvent()
        let end = Date().addingTimeInterval(timeout)
        while names.count < count, Date() < end {
            guard XPending(application) > 0 else {
                usleep(10_000)
                continue
            }
            XNextEvent(application, &event)
            guard event.type == KeyPress else { continue }
            var keysym: KeySym = 0
            var buffer = [CChar](repeating: 0, count: 16)
            _ = XLookupString(&event.xkey, &buffer, Int32(buffer.count), &keysym, nil)
            names.append(keysym == 0 ? "NoSymbol" : XKeysymToString(keysym).map { String(cString: $0) } ?? "?")
        }
        return names
    }

    /// Found in review: a lend went back a second after its key, and the next lend took the
    /// same keycode; a busy application (a filter running, a save) read the key as nothing,
    /// or as the later key: under a Russian layout, ctrl+z typed through a lent `z` undid nothing.
    @Test("lent keys a busy application reads seconds later: each its own keysym, the first lend not reused")
    func lentKeysReadLate() throws {
        let application = try application()
        defer { XCloseDisplay(application) }
        let performer = XTestPerformer(connection: connection)
        try performer.perform(Self.action(.key(KeyCombo(keys: ["Greek_alpha"]))), now: 10)
        connection.sync()
        performer.tick(now: 11.5)
        try performer.perform(Self.action(.key(KeyCombo(keys: ["Greek_beta"]))), now: 11.6)
        performer.tick(now: 13)
        connection.sync()
        #expect(keysymsRead(by: application, count: 2) == ["Greek_alpha", "Greek_beta"])
        performer.shutdown()
        connection.sync()
    }

    /// Turns the core keyboard's SlowKeys or BounceKeys on with these delays in milliseconds
    /// (0: off) for `body`, and both off after it, as a person sets them in their desktop's
    /// accessibility settings.
    func withAccessX(slowKeys: UInt16 = 0, debounce: UInt16 = 0, _ body: () throws -> Void) throws {
        try AccessXSettings.set(on: connection.display, slowKeys: slowKeys, debounce: debounce)
        defer { try? AccessXSettings.set(on: connection.display) }
        #expect(connection.takeErrors().isEmpty)
        try body()
    }

    /// Runs the performer's timers as the event loop would, on the real clock, until none is
    /// set (at most `timeout` seconds).
    func runTimers(_ performer: XTestPerformer, clock: MonotonicClock, timeout: Double = 3) {
        let end = clock.now + timeout
        while let deadline = performer.nextDeadline, clock.now < end {
            let wait = deadline - clock.now
            if wait > 0 { usleep(UInt32(wait * 1_000_000) + 1) }
            performer.tick(now: clock.now)
        }
    }

    /// The key presses the application reads within `seconds`: each keysym's name, and whether
    /// Ctrl was down with it.
    func keyPresses(by application: OpaquePointer, within seconds: Double) -> [(String, control: Bool)] {
        var presses: [(String, control: Bool)] = []
        var event = XEvent()
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            guard XPending(application) > 0 else {
                usleep(10_000)
                continue
            }
            XNextEvent(application, &event)
            guard event.type == KeyPress else { continue }
            let keysym = XLookupKeysym(&event.xkey, 0)
            presses.append((XKeysymToString(keysym).map { String(cString: $0) } ?? "?", event.xkey.state & UInt32(ControlMask) != 0))
        }
        return presses
    }

    /// Key actions sent `apart` seconds apart through a fresh performer, its timers run to the
    /// end: the key presses the application reads, and whether anything stays held.
    func keyPresses(sending combos: [[String]], apart: Double) throws -> (presses: [(String, control: Bool)], holding: Bool) {
        let application = try application()
        defer { XCloseDisplay(application) }
        let performer = XTestPerformer(connection: connection)
        let clock = MonotonicClock()
        for (index, keys) in combos.enumerated() {
            if index > 0 { usleep(UInt32(apart * 1_000_000)) }
            try performer.perform(Self.action(.key(KeyCombo(keys: keys))), now: clock.now)
            connection.sync()
        }
        runTimers(performer, clock: clock)
        connection.sync()
        return (keyPresses(by: application, within: 0.5), performer.isHolding)
    }

    /// Found in review of a Turkish locale: `ctrl+ı` (the dotless i, a key of its own on a
    /// Turkish keyboard) was upper-cased to the ASCII `I` X knows, and sent as Ctrl+Shift+I:
    /// a browser's developer tools opened.
    @Test("ctrl+ı and ctrl+ſ are refused as unknown names, never sent as an ASCII capital with Shift; ctrl+U0131 sends the dotless i with Ctrl")
    func nonASCIILettersNotCapitalized() throws {
        let performer = XTestPerformer(connection: connection)
        for written in ["ı", "ſ"] {
            #expect(KeyboardMapping.keysym(named: written) == nil, "\(written)")
            #expect(throws: ActionFailure.self) {
                try performer.perform(Self.action(.key(KeyCombo(keys: ["ctrl", written]))), now: MonotonicClock().now)
            }
        }
        #expect(!performer.isHolding)
        let (presses, holding) = try keyPresses(sending: [["ctrl", "U0131"]], apart: 0)
        #expect(presses.count == 2 && presses.last?.control == true, "\(presses)")
        #expect(!presses.contains { $0.0 == "I" || $0.0.hasPrefix("Shift") }, "\(presses)")
        #expect(!holding)
    }

    /// Found in review: with SlowKeys on (a desktop's accessibility settings, for a hand that
    /// presses keys by mistake), the server takes a key only once it has been held the delay,
    /// and the bridge pressed and let go of each key at once: no key action arrived at all.
    @Test("SlowKeys on at 0.2 s: a key action arrives, its keys held past the delay")
    func slowKeys() throws {
        try withAccessX(slowKeys: 200) {
            let (presses, holding) = try keyPresses(sending: [["ctrl", "z"]], apart: 0)
            #expect(presses.map(\.0) == ["Control_L", "z"], "\(presses)")
            #expect(presses.last?.control == true, "\(presses)")
            #expect(!holding)
        }
    }

    /// Found in review: with BounceKeys on (for a hand with a tremor), a key pressed again
    /// within the delay of its release is dropped: an undo knob turned back at once sent
    /// ctrl+y's Ctrl 0.1 s after ctrl+z's, and the application got a bare `y`, typed into it.
    @Test("BounceKeys on at 0.3 s: ctrl+z, then ctrl+y 0.1 s later, both arrive with Ctrl, no bare letter")
    func bounceKeys() throws {
        try withAccessX(debounce: 300) {
            let (presses, holding) = try keyPresses(sending: [["ctrl", "z"], ["ctrl", "y"]], apart: 0.1)
            #expect(presses.map(\.0) == ["Control_L", "z", "Control_L", "y"], "\(presses)")
            let bareLetters = presses.filter { ($0.0 == "z" || $0.0 == "y") && !$0.control }
            #expect(bareLetters.isEmpty, "\(presses)")
            #expect(!holding)
        }
    }

    /// Found in review: with Slow Keys on, a knob bound to ctrl+z turned half a turn queued
    /// every step and went on typing for 15 s after the hand stopped; a key the person typed
    /// meanwhile was lost, or cancelled one of the bridge's.
    @Test("SlowKeys on at 0.1 s, a knob's burst of ten ctrl+z: three arrive, each with Ctrl, the rest refused with an error; nothing held after")
    func slowKeysBurstBounded() throws {
        try withAccessX(slowKeys: 100) {
            let application = try application()
            defer { XCloseDisplay(application) }
            let performer = XTestPerformer(connection: connection)
            let clock = MonotonicClock()
            var refused = 0
            for _ in 0..<10 {
                do {
                    try performer.perform(Self.action(.key(KeyCombo(keys: ["ctrl", "z"]))), now: clock.now)
                } catch {
                    refused += 1
                }
            }
            connection.sync()
            runTimers(performer, clock: clock)
            connection.sync()
            let zs = keyPresses(by: application, within: 0.5).filter { $0.0 == "z" }
            #expect(zs.count == 1 + KeyStrokes.waitingLimit && zs.allSatisfy(\.control), "\(zs)")
            #expect(refused == 10 - zs.count)
            #expect(!performer.isHolding)
        }
    }

    /// Found in review of a machine short of memory: with Slow Keys on, a chord's Ctrl is held
    /// for the delay before its z; a bridge killed then (the kernel short of memory) left Ctrl
    /// down for the rest of the session, every click a ctrl+click, and the next bridge did not
    /// let go of it: its mark named buttons only.
    @Test("a bridge killed while Slow Keys holds a chord's Ctrl: the next bridge lets go of it")
    func killedMidChord() throws {
        try withAccessX(slowKeys: 200) {
            let killed = XTestPerformer(connection: connection)
            try killed.perform(Self.action(.key(KeyCombo(keys: ["ctrl", "z"]))), now: MonotonicClock().now)
            connection.sync()
            // Slow Keys lets the held Ctrl through once its delay has passed.
            usleep(350_000)
            let held = connection.keysDown()
            #expect(!held.isEmpty, "Ctrl held, as the killed bridge left it")
            #expect(Set(HeldMark.keys.read(on: connection).map(UInt8.init)) == held, "the mark names what is held")
            let next = XTestPerformer(connection: connection)
            next.releaseLeftovers(xtestPointer: nil)
            connection.sync()
            #expect(connection.keysDown().isEmpty, "still held: \(connection.keysDown())")
            #expect(HeldMark.keys.read(on: connection).isEmpty)
        }
    }

    /// Found in review of the Sticky Keys change: whether Ctrl was latched already was read as
    /// an action was queued, so with Slow Keys holding the first ctrl+z back, the second was
    /// queued without its Ctrl too, and after the first z used the person's latch up, the
    /// second z came bare (typed into the document instead of undoing).
    @Test("Sticky Keys that two keys turn off and SlowKeys at 0.1 s, Ctrl latched by hand: two ctrl+z queued together both arrive with Ctrl")
    func stickyAndSlowKeysLatchedByHand() throws {
        try withAccessX(slowKeys: 100) {
            try AccessXSettings.setStickyKeys(on: connection.display, true, twoKeysOff: true)
            defer { try? AccessXSettings.setStickyKeys(on: connection.display, false) }
            let control = UInt32(ControlMask)
            XkbLatchModifiers(connection.display, UInt32(XkbUseCoreKbd), control, control)
            #expect(AccessXSettings.modifiers(on: connection.display).latched & control != 0, "Ctrl latched, as a tap of it latches")
            let (presses, holding) = try keyPresses(sending: [["ctrl", "z"], ["ctrl", "z"]], apart: 0)
            let zs = presses.filter { $0.0 == "z" }
            #expect(zs.count == 2 && zs.allSatisfy(\.control), "\(presses)")
            #expect(try AccessXSettings.stickyKeys(on: connection.display), "Sticky Keys still on")
            #expect(AccessXSettings.modifiers(on: connection.display) == (0, 0), "nothing latched or locked after")
            #expect(!holding)
        }
    }

    /// Found in review: a keymap loaded while a keycode was lent (`setxkbmap`, a desktop
    /// applying its layout) took the lend back, yet the bridge went on sending that keycode,
    /// which typed nothing, and gave it back by writing over what the new keymap put there.
    @Test("a lent keycode that a new keymap took: the key is lent again, and what the keymap put there is left alone")
    func lendTakenBack() throws {
        let mapping = KeyboardMapping(connection: connection)
        let lent = try #require(try mapping.chord(for: KeyCombo(keys: ["Thai_ngongu"]), now: 10).keycodes.first)
        // Another keymap, with F20 where the lend was.
        var f20: [KeySym] = [KeySym(XK_F20), KeySym(XK_F20)]
        XChangeKeyboardMapping(connection.display, Int32(lent), 2, &f20, 1)
        connection.sync()
        let again = try #require(try mapping.chord(for: KeyCombo(keys: ["Thai_ngongu"]), now: 10.5).keycodes.first)
        #expect(again != lent)
        #expect(symbol(of: again) == XStringToKeysym("Thai_ngongu"))
        mapping.restoreAll()
        connection.sync()
        #expect(symbol(of: lent) == KeySym(XK_F20), "the new keymap's key is left as it is")
        #expect(symbol(of: again) == 0)
        var none: [KeySym] = [0, 0]
        XChangeKeyboardMapping(connection.display, Int32(lent), 2, &none, 1)
        connection.sync()
    }

    /// Found in review: a keysym on a key's second level was sent with Shift, whatever that
    /// level needs: `meta+x` (Meta_L, the Alt key's second level) came as shift+alt+X, and
    /// KP_1 (the keypad's NumLock level) as shift+KP_End.
    @Test("a modifier on a key's second level is its key alone; a keypad digit with NumLock off is a lent key, not Shift")
    func levelsWithoutShift() throws {
        let mapping = KeyboardMapping(connection: connection)
        let shift = XKeysymToKeycode(connection.display, KeySym(XK_Shift_L))
        let alt = XKeysymToKeycode(connection.display, KeySym(XK_Alt_L))
        let meta = try mapping.chord(for: KeyCombo(keys: ["Meta_L", "x"]), now: 0).keycodes
        #expect(meta == [alt, XKeysymToKeycode(connection.display, KeySym(XK_x))])
        let digit = try mapping.chord(for: KeyCombo(keys: ["KP_1"]), now: 0).keycodes
        #expect(digit.count == 1 && !digit.contains(shift), "\(digit)")
        #expect(symbol(of: try #require(digit.first)) == KeySym(XK_KP_1), "typed by a key of its own")
        mapping.restoreAll()
        connection.sync()
    }

    /// The first keysym of `keycode` in the core keyboard's map.
    func symbol(of keycode: UInt8) -> KeySym {
        var perKeycode: Int32 = 0
        guard let symbols = XGetKeyboardMapping(connection.display, keycode, 1, &perKeycode) else { return 0 }
        defer { XFree(symbols) }
        return symbols[0]
    }
}
