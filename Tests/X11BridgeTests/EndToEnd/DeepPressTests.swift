import Foundation
import Testing
import XorgTestSupport

/// The application under the pen or finger: what it receives is what a person sees happen.
@Suite("Deep press right-clicks in the application", .requiresXorg, .serialized)
final class DeepPressTests: StageSuite {
    static func rightClicks(_ events: [RecordedEvent]) -> [RecordedEvent] {
        events.filter { ($0.kind == .buttonPress || $0.kind == .buttonRelease) && $0.detail == 3 }
    }

    @Test("pen: down light, press to 0.9, lift: the window gets a right-click there")
    func penDeepPress() throws {
        let bridge = try stage.bridge()

        try stage.pen.down(at: (400, 300), pressure: 0.1)
        try stage.pen.press(to: 0.9)
        try stage.pen.up()

        let clicks = Self.rightClicks(stage.window.events { Self.rightClicks($0).count >= 2 })
        #expect(clicks.map(\.kind) == [.buttonPress, .buttonRelease])
        // From the XTEST pointer: the bridge's synthetic click.
        let xtestPointer = try stage.serverDeviceID("Virtual core XTEST pointer")
        #expect(clicks.allSatisfy { $0.rootX == 400 && $0.rootY == 300 && $0.sourceID == xtestPointer }, "\(clicks)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        #expect(bridge.actions.contains { $0.action == "click" && $0.fields.button == 3 })
    }

    @Test("touch: a finger pressing hard right-clicks where it is")
    func touchDeepPress() throws {
        let bridge = try stage.bridge()

        try stage.touch.begin(at: (640, 200), pressure: 0.1)
        try stage.touch.update(pressure: 0.9)
        try TouchOwnershipTests.liftAfterRightClick(stage.server, stage.window)

        let clicks = Self.rightClicks(stage.window.events { Self.rightClicks($0).count >= 2 })
        #expect(clicks.map(\.kind) == [.buttonPress, .buttonRelease])
        #expect(clicks.allSatisfy { $0.rootX == 640 && $0.rootY == 200 })
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        let touchID = try bridge.deviceID("test-touch")
        #expect(bridge.gestures.contains { $0.recognizer == .deepPress && $0.device == touchID })
    }

    @Test("a light pen tap is an ordinary click: no right button")
    func lightTap() throws {
        let bridge = try stage.bridge()

        try stage.pen.down(at: (300, 300), pressure: 0.3)
        try stage.pen.up()

        // The bridge has seen the lift once the deep press reports that it failed; any click it
        // sent for this contact would have gone out before that line.
        let decided = bridge.waitForLines {
            $0.gestures.contains { $0.gesture == "right-click" && $0.state == .failed }
        }
        #expect(decided)
        // The press waited for that decision; the window gets it right after.
        let events = stage.window.events { events in events.contains { $0.kind == .buttonRelease && $0.detail == 1 } }
        #expect(Self.rightClicks(events).isEmpty)
        #expect(events.contains { $0.kind == .buttonPress && $0.detail == 1 })
        #expect(bridge.actions.isEmpty)
    }
}
