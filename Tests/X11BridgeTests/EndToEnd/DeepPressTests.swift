import Foundation
import Testing
import XorgTestSupport

/// The application under the pen or finger: what it receives is what a person sees happen.
@Suite("Deep press right-clicks in the application", .requiresXorg, .serialized)
struct DeepPressTests {
    /// The XTEST pointer: where the bridge's synthetic clicks come from.
    static let xtestPointer: Int32 = 4

    static func rightClicks(_ events: [RecordedEvent]) -> [RecordedEvent] {
        events.filter { ($0.kind == .buttonPress || $0.kind == .buttonRelease) && $0.detail == 3 }
    }

    @Test("pen: down light, press to 0.9, lift: the window gets a right-click there")
    func penDeepPress() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let bridge = try BridgeProcess(["run", "--json"], server: server)

        try server.pen.down(at: (400, 300), pressure: 0.1)
        try server.pen.press(to: 0.9)
        try server.pen.up()

        let clicks = Self.rightClicks(window.events { Self.rightClicks($0).count >= 2 })
        #expect(clicks.map(\.kind) == [.buttonPress, .buttonRelease])
        #expect(clicks.allSatisfy { $0.rootX == 400 && $0.rootY == 300 && $0.sourceID == Self.xtestPointer })
        #expect(window.pointerState()?.buttonsHeld == [])
        #expect(bridge.objects.contains { $0["action"] as? String == "click" && $0["button"] as? Int == 3 })
    }

    @Test("touch: a finger pressing hard right-clicks where it is")
    func touchDeepPress() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let bridge = try BridgeProcess(["run", "--json"], server: server)

        try server.touch.begin(at: (640, 200), pressure: 0.1)
        try server.touch.update(pressure: 0.9)
        try TouchOwnershipTests.liftAfterRightClick(server, window)

        let clicks = Self.rightClicks(window.events { Self.rightClicks($0).count >= 2 })
        #expect(clicks.map(\.kind) == [.buttonPress, .buttonRelease])
        #expect(clicks.allSatisfy { $0.rootX == 640 && $0.rootY == 200 })
        #expect(window.pointerState()?.buttonsHeld == [])
        #expect(bridge.objects.contains { $0["recognizer"] as? String == "deep-press" && $0["device"] as? Int == 7 })
    }

    @Test("a light pen tap is an ordinary click: no right button")
    func lightTap() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let bridge = try BridgeProcess(["run", "--json"], server: server)

        try server.pen.down(at: (300, 300), pressure: 0.3)
        try server.pen.up()

        // The bridge has seen the lift once the deep press reports that it failed; any click it
        // sent for this contact would have gone out before that line.
        let decided = bridge.waitForObjects {
            $0.contains { $0["gesture"] as? String == "right-click" && $0["state"] as? String == "failed" }
        }
        #expect(decided)
        // The press waited for that decision; the window gets it right after.
        let events = window.events { events in events.contains { $0.kind == .buttonRelease && $0.detail == 1 } }
        #expect(Self.rightClicks(events).isEmpty)
        #expect(events.contains { $0.kind == .buttonPress && $0.detail == 1 })
        #expect(!bridge.objects.contains { $0["action"] != nil })
    }
}
