import CX11
import Foundation
import GestureKit
import Testing
import XorgTestSupport

/// Found in review of the outputs held back until a press is known to be the bridge's: what
/// another client's freeze of the pointer (a keyboard grab asking for it) or a side button did
/// to a contact whose claim, ring or release was held back.
@Suite("Held-back outputs under a foreign freeze and a side button", .requiresXorg, .serialized)
final class HeldBackFreezeTests: StageSuite {
    /// The pen down at `point` and pressed through a deep press's forces, 10 ms apart.
    func pressDeep(at point: PixelPoint) throws {
        try stage.pen.down(at: point, pressure: 0.1)
        for force in [0.3, 0.5, 0.65, 0.95] {
            usleep(10_000)
            try stage.pen.press(to: force)
        }
    }

    /// A bridge, the pen's id, and another client's keyboard grab freezing the pointer, which
    /// the caller closes.
    func bridgeUnderFreeze() throws -> (BridgeProcess, pen: Int, PointerFreezingKeyboardGrab) {
        let bridge = try stage.bridge(["--verbose"])
        let pen = try bridge.deviceID(VirtualPen.deviceName)
        return (bridge, pen, try PointerFreezingKeyboardGrab(server: stage.server, window: stage.window.window))
    }

    /// The window's events once the tap held back through another client's freeze reaches it,
    /// through a key tapped after it. The freeze over, the press it held back activates the
    /// bridge's grab, and the master stays frozen until the bridge reads it and lets it go,
    /// while the keyboard is not: a key tapped at once can come first (it did on a loaded
    /// machine, button 1 already down at the key), so the tap is waited for, and the key then
    /// shows that nothing more came.
    func eventsOnceTapLetGo(_ bridge: BridgeProcess, sourceLocation: SourceLocation = #_sourceLocation) throws -> [RecordedEvent] {
        #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).count >= 2 }, "the tap let go: \(bridge.lines)",
                sourceLocation: sourceLocation)
        return try stage.eventsUntilKeyTapped(sourceLocation: sourceLocation)
    }

    /// After a freeze: a light tap reaches the window whole, a deep press right-clicks, and
    /// nothing stays held.
    func expectAsEver(_ bridge: BridgeProcess, sourceLocation: SourceLocation = #_sourceLocation) throws {
        stage.window.drain()
        try stage.pen.down(at: (320, 320), pressure: 0.3)
        usleep(50_000)
        try stage.pen.up()
        #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).count >= 2 }, "the tap after: \(bridge.lines)",
                sourceLocation: sourceLocation)
        try pressDeep(at: (340, 340))
        try stage.pen.up()
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 }, "the deep press after: \(bridge.lines)",
                sourceLocation: sourceLocation)
        #expect(stage.buttonsStillHeld() == [], "nothing stays held", sourceLocation: sourceLocation)
    }

    @Test("a deep tap lifted while another client freezes the pointer: the window gets it once the freeze ends, one decision, then all as ever")
    func deepTapLiftedDuringFreeze() throws {
        let (bridge, pen, grab) = try bridgeUnderFreeze()
        defer { grab.close() }
        try pressDeep(at: (300, 300))
        usleep(100_000)
        try stage.pen.up()
        usleep(100_000)
        grab.ungrab()
        let events = try eventsOnceTapLetGo(bridge)
        #expect(buttonEvents(1, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "the tap once: \(events)\n\(bridge.lines)")
        #expect(bridge.decisions.filter { $0.device == pen }.count == 1, "\(bridge.lines)")
        try expectAsEver(bridge)
    }

    @Test("a light press held still while another client freezes the pointer, lifted before it ends: one decision line, the tap whole")
    func ringThenReleaseLiftedDuringFreeze() throws {
        let (bridge, pen, grab) = try bridgeUnderFreeze()
        defer { grab.close() }
        try stage.pen.down(at: (300, 300), pressure: 0.3)
        usleep(700_000)
        try stage.pen.up()
        usleep(100_000)
        grab.ungrab()
        let events = try eventsOnceTapLetGo(bridge)
        #expect(bridge.decisions.filter { $0.device == pen }.count == 1, "one decision line: \(bridge.lines)")
        #expect(buttonEvents(1, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "the tap whole: \(events)")
        #expect(stage.buttonsStillHeld() == [], "nothing stays held")
    }

    @Test("a firm landing's claim held back by a freeze, the side button then squeezed: one decision, nothing frozen, then all as ever")
    func claimThenSideButtonDuringFreeze() throws {
        let (bridge, pen, grab) = try bridgeUnderFreeze()
        defer { grab.close() }
        try pressDeep(at: (300, 300))
        usleep(100_000)
        try stage.pen.setButton(2, pressed: true)
        usleep(100_000)
        grab.ungrab()
        usleep(200_000)
        try stage.pen.setButton(2, pressed: false)
        try stage.pen.up()
        _ = try stage.eventsUntilKeyTapped()
        #expect(bridge.decisions.filter { $0.device == pen }.count == 1, "one decision line: \(bridge.lines)")
        try expectAsEver(bridge)
    }

    @Test("under a screen locker, the side button squeezed on a press the locker has: a watching binding still acts on nothing")
    func lockerSideButtonWatching() throws {
        let bridge = try stage.bridge(["--verbose"], config: OpenMenuTests.lockedOut + """

              - name: watching
                gesture: pressure-thresholds
                devices: [pen, touch]
                thresholds: [0.4, 0.8]
                up: {command: [true]}
            """)
        let locker = try OpenMenuTests.grabbing(stage, title: "locker")
        defer { locker.close() }
        try stage.pen.down(at: (400, 300), pressure: 0.1)
        usleep(20_000)
        try stage.pen.press(to: 0.2)
        usleep(50_000)
        try stage.pen.press(to: 0.25)
        #expect(bridge.waitForLines { $0.decisions.count >= 1 }, "taken: \(bridge.lines)")
        try stage.pen.click(button: 2)
        for force in [0.5, 0.7, 0.9] {
            usleep(30_000)
            try stage.pen.press(to: force)
        }
        try stage.pen.up()
        #expect(locker.waitForEvents { buttonEvents(1, in: $0).count >= 2 }, "the locker got the press: \(locker.recordedEvents)")
        #expect(try bridge.waitUntilAsleep(quiet: 0.2))
        #expect(bridge.actions.isEmpty, "actions behind the locker: \(bridge.lines)")
    }
}
