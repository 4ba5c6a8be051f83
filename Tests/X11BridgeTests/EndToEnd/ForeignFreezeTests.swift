import CX11
import Foundation
import GestureKit
import Testing
import XorgTestSupport

/// Another client's keyboard grab whose pointer mode is Sync (EFL's key grabs, i3 before
/// 4.x): X freezes the master pointer for it (`CheckGrabForSyncs` sets `sync.other`) though
/// nobody grabs the pointer. Only the master's `processInputProc` becomes `EnqueueEvent`
/// (`FreezeThaw`): the pen's raw events go on reaching the bridge, its grabbed press waits.
final class PointerFreezingKeyboardGrab {
    private let display: OpaquePointer

    init(server: any HeadlessDisplay, window: UInt) throws {
        guard let display = XOpenDisplay(server.displayName) else { throw RecorderWindowError.cannotOpenDisplay(server.displayName) }
        self.display = display
        let status = XGrabKeyboard(display, window, 0, GrabModeSync, GrabModeAsync, UInt(CurrentTime))
        XSync(display, 0)
        guard status == GrabSuccess else {
            XCloseDisplay(display)
            throw RecorderWindowError.cannotOpenDisplay("keyboard grab refused: \(status)")
        }
    }

    /// Ends the grab: the master pointer plays what it queued.
    func ungrab() {
        XUngrabKeyboard(display, UInt(CurrentTime))
        XSync(display, 0)
    }

    func close() {
        XCloseDisplay(display)
    }
}

@Suite("Another client's synchronous grab", .requiresXorg, .serialized)
final class ForeignFreezeTests: StageSuite {
    /// Down at `point` with 0.1, on through 0.3, 0.6 and 0.95 20 ms apart, held 300 ms, lifted.
    func slowDeepPress(by presser: ReplugOwnershipTests.Presser, at point: PixelPoint) throws {
        try presser.begin(stage, at: point, force: 0.1)
        for force in [0.3, 0.6, 0.95] {
            usleep(20_000)
            try presser.press(stage, to: force)
        }
        usleep(300_000)
        try presser.lift(stage)
    }

    @Test("the pen presses deep while another client's keyboard grab freezes the pointer: once it ends, a right-click alone")
    func keyboardGrabFreezingPointer() throws {
        let bridge = try stage.bridge(["--verbose"])
        let pen = try bridge.deviceID(VirtualPen.deviceName)
        let grab = try PointerFreezingKeyboardGrab(server: stage.server, window: stage.window.window)
        defer { grab.close() }
        try stage.pen.down(at: (300, 300), pressure: 0.1)
        for force in [0.3, 0.5, 0.65, 0.95] {
            usleep(10_000)
            try stage.pen.press(to: force)
        }
        usleep(100_000)
        grab.ungrab()
        try stage.pen.press(to: 0.95)
        #expect(bridge.waitForLines { $0.decisions.contains { $0.device == pen } }, "\(bridge.lines)")
        try stage.pen.up()
        // The decision's line comes before the right-click reaches the server: waited for there.
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 }, "\(bridge.lines)")
        let events = try stage.eventsUntilKeyTapped()
        #expect(bridge.decisions.filter { $0.device == pen }.map(\.decision) == [.claim], "\(bridge.lines)")
        #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
        #expect(buttonEvents(1, in: events).isEmpty, "no left press: \(events)")
        #expect(stage.buttonsStillHeld() == [], "nothing stays held")
    }

    /// Found in review: a gesture daemon (touchegg) holding the root's touch grab when the
    /// bridge started kept it from the bridge for good, though the daemon quit: every finger's
    /// deep press reached the application and right-clicked too, the rest of the session.
    @Test("another client's touch grab, gone after the bridge started: the bridge holds touches again from the next touch's end")
    func touchGrabTakenAgain() throws {
        let other = try #require(XOpenDisplay(stage.server.displayName))
        let bridge = try Self.bridgeBeside(touchGrabOf: other, on: stage)
        // A touch while the other client still holds the grab: tried again at its end, refused,
        // and not said again.
        try stage.touch.tap(at: (150, 150), pressure: 0.2)
        #expect(bridge.waitForLines { $0.contains { $0.ownership?.ownership == .cannotHold && $0.ownership?.input == .touch } })
        usleep(200_000)
        XCloseDisplay(other)
        // The first touch after it is the window's as without the bridge; its end takes the grab again.
        try stage.touch.tap(at: (200, 200), pressure: 0.2)
        #expect(bridge.ownership { $0.ownership == .holding && $0.input == .touch } != nil, "\(bridge.lines)")
        stage.window.drain()
        try stage.touch.begin(at: (500, 300), pressure: 0.1)
        try stage.touch.update(pressure: 0.9)
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 }, "\(bridge.lines)")
        try stage.touch.end()
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(1, in: events).isEmpty, "the deep press's touch is the bridge's: \(events)")
        #expect(bridge.lines.filter { $0.ownership?.ownership == .cannotHold }.count == 1, "said once")
    }

    /// Found in review of an evening of games: with a gesture daemon's touch grab on the root
    /// (the bridge's refused), a finger's deep press reached the application as a left press
    /// and right-clicked too, the left release never coming; a knob's turn dragged the window
    /// while volume keys went out.
    @Test("another client holds the touch grab: a finger's deep press and a knob's turn are the application's alone, nothing held")
    func touchesOfAnotherClient() throws {
        let other = try #require(XOpenDisplay(stage.server.displayName))
        defer { XCloseDisplay(other) }
        let bridge = try Self.bridgeBeside(touchGrabOf: other, on: stage)
        let touch = try bridge.deviceID(VirtualTouchscreen.deviceName)
        stage.window.drain()
        try slowDeepPress(by: .touch, at: (500, 300))
        // The knob's ring by the top-right corner, turned a half circle.
        let center = (x: 1130.0, y: 150.0)
        try stage.touch.begin(at: (center.x + 60, center.y), pressure: 0.2)
        for step in 1...12 {
            let angle = Double(step) * .pi / 12
            usleep(15_000)
            try stage.touch.update(to: (center.x + 60 * cos(angle), center.y + 60 * sin(angle)), pressure: 0.2)
        }
        try stage.touch.end()
        let events = try stage.eventsUntilKeyTapped()
        #expect(bridge.lines.filter { $0.action != nil }.isEmpty, "no action of the bridge's: \(bridge.lines)")
        #expect(bridge.decisions.filter { $0.device == touch }.allSatisfy { $0.decision == .release }, "\(bridge.lines)")
        #expect(buttonEvents(3, in: events).isEmpty, "\(events)")
        let left = buttonEvents(1, in: events)
        #expect(left.filter { $0.kind == .buttonPress }.count == left.filter { $0.kind == .buttonRelease }.count, "\(events)")
        #expect(stage.buttonsStillHeld() == [], "nothing stays held")
    }

    /// Found in review of X's protocol edges: with another client's button-1 grab on the root
    /// (a gesture program's, or a second bridge's), the bridge's refused, a pen's deep press
    /// still right-clicked beside the press that client had: with two bridges, twice.
    @Test("another client holds the button grab: a pen's deep press is that client's alone, no right-click of the bridge's, nothing held")
    func buttonGrabOfAnotherClient() throws {
        let other = try #require(XOpenDisplay(stage.server.displayName))
        defer { XCloseDisplay(other) }
        var bits: [UInt8] = [0b0011_0000, 0]
        var modifiers = XIGrabModifiers(modifiers: Int32(bitPattern: UInt32(XIAnyModifier)), status: 0)
        let failed = bits.withUnsafeMutableBufferPointer { buffer in
            var mask = XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            return XIGrabButton(other, XIAllMasterDevices, 1, XDefaultRootWindow(other), 0, GrabModeAsync, GrabModeAsync, 0, &mask, 1,
                                &modifiers)
        }
        XSync(other, 0)
        #expect(failed == 0, "the other client holds the button grab")
        let bridge = try stage.bridge()
        #expect(bridge.ownership { $0.ownership == .cannotHold }?.input == .press, "\(bridge.lines)")
        let pen = try bridge.deviceID(VirtualPen.deviceName)
        stage.window.drain()
        try slowDeepPress(by: .pen, at: (300, 300))
        #expect(bridge.waitForLines { $0.decisions.contains { $0.device == pen } }, "its own stimulus: the press was seen \(bridge.lines)")
        let events = try stage.eventsUntilKeyTapped()
        #expect(bridge.actions.isEmpty, "no action of the bridge's: \(bridge.lines)")
        #expect(bridge.decisions.filter { $0.device == pen }.allSatisfy { $0.decision == .release && $0.reason == .anotherButton },
                "\(bridge.lines)")
        #expect(buttonEvents(3, in: events).isEmpty, "\(events)")
        #expect(stage.buttonsStillHeld() == [], "nothing stays held")
    }

    /// Found in review of window managers: xmonad grabs Alt+button 1 on the root (a core grab)
    /// to move windows. A bridge started after it took that press with its own grab, and
    /// handed back, the press skipped the root's grabs: Alt+drag moved no window, and the
    /// application got an Alt+click.
    @Test("a window manager's core grab of Alt+button 1 on the root, taken before the bridge: an Alt+pen press is the window manager's alone; without Alt the bridge right-clicks")
    func windowManagerAltGrab() throws {
        let manager = try #require(XOpenDisplay(stage.server.displayName))
        defer { XCloseDisplay(manager) }
        XGrabButton(manager, UInt32(Button1), UInt32(Mod1Mask), XDefaultRootWindow(manager), 0,
                    UInt32(ButtonPressMask | ButtonReleaseMask), GrabModeAsync, GrabModeAsync, 0, 0)
        XSync(manager, 0)
        let bridge = try stage.bridge()
        stage.window.drain()
        let alt: Int32 = 64
        try stage.server.keyboard.press(keycode: alt)
        try slowDeepPress(by: .pen, at: (300, 300))
        try stage.server.keyboard.release(keycode: alt)
        let managerPressed = poll(timeout: 3, every: 0.02, { () -> Bool in
            var event = XEvent()
            return XCheckTypedEvent(manager, ButtonPress, &event) != 0
        }, until: { $0 })
        #expect(managerPressed, "the window manager's grab got the Alt+press: \(bridge.lines)")
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(1, in: events).isEmpty && buttonEvents(3, in: events).isEmpty, "the application saw no Alt+click: \(events)")
        #expect(bridge.actions.isEmpty, "\(bridge.lines)")
        #expect(stage.buttonsStillHeld() == [], "nothing stays held")
        try slowDeepPress(by: .pen, at: (400, 300))
        let right = buttonEvents(3, in: stage.window.events { buttonEvents(3, in: $0).count >= 2 })
        #expect(right.map(\.kind) == [.buttonPress, .buttonRelease], "without Alt, the bridge's: \(bridge.lines)")
    }

    /// Takes the root's touch grab for `other` (as a gesture daemon such as touchegg holds
    /// it), then starts a bridge, which is refused the grab and says so.
    static func bridgeBeside(touchGrabOf other: OpaquePointer, on stage: Stage) throws -> BridgeProcess {
        var bits: [UInt8] = [0, 0, 0b0011_1100, 0]
        var modifiers = XIGrabModifiers(modifiers: Int32(bitPattern: UInt32(XIAnyModifier)), status: 0)
        let failed = bits.withUnsafeMutableBufferPointer { buffer in
            var mask = XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            return XIGrabTouchBegin(other, XIAllMasterDevices, XDefaultRootWindow(other), 0, &mask, 1, &modifiers)
        }
        XSync(other, 0)
        #expect(failed == 0, "the other client holds the touch grab")
        let bridge = try stage.bridge()
        #expect(bridge.ownership { $0.ownership == .cannotHold }?.input == .touch, "\(bridge.lines)")
        return bridge
    }
}
