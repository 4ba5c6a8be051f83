import Foundation
import Glibc
import Testing
import XorgTestSupport

/// A device whose driver declares pressure it never moves, and does not say what the device
/// is: after two presses that never leave the minimum it counts as without pressure, so its
/// presses stop waiting for a deep press that cannot come; pressing with force brings its
/// pressure back.
@Suite("A declared pressure that never moves", .requiresXorg, .serialized)
final class DeadPressureTests: StageSuite {
    @Test("two still presses: the pen counts as without pressure, its next press is handed over at once; a real press restores it")
    func deadThenAlive() throws {
        let bridge = try stage.bridge(["--json"])
        let pen = try bridge.deviceID("test-pen")
        func decisions() -> [[String: Any]] {
            bridge.objects.filter { $0["decision"] != nil && $0["device"] as? Int == pen }
        }
        var presses = 0
        /// A press held still until `reported` holds of what the bridge said, then lifted; the next
        /// comes once the window has this one's release, as a hand lets go before pressing again.
        func press(pressure: Double, until reported: @escaping () -> Bool) throws {
            try stage.pen.down(at: (400, 300), pressure: pressure)
            _ = bridge.waitForObjects { _ in reported() }
            try stage.pen.up()
            presses += 1
            _ = stage.window.events { events in buttonEvents(1, in: events).filter { $0.kind == .buttonRelease }.count >= presses }
        }

        // Held for a deep press that never comes: handed over at the decision timeout.
        try press(pressure: 0) { decisions().count >= 1 }
        try press(pressure: 0) { decisions().count >= 2 }
        #expect(bridge.waitForEvents("pressure-dead"), "\(bridge.objects)")
        #expect(bridge.events("pressure-dead").first?["device"] as? Int == pen)
        #expect(decisions().map { $0["reason"] as? String } == ["timeout", "timeout"], "\(decisions())")

        // Now only gestures that need no pressure listen (the knob, not here): handed over at once.
        try press(pressure: 0) { decisions().count >= 3 }
        let third = try #require(decisions().dropFirst(2).first, "\(decisions())")
        #expect(third["reason"] as? String == "no-gesture" && (third["held"] as? Double ?? 1) < 0.1, "\(third)")

        // A press with force: the pressure counts again, and the next press right-clicks.
        try press(pressure: 0.3) { !bridge.events("pressure-alive").isEmpty }
        #expect(bridge.waitForEvents("pressure-alive"), "\(bridge.objects)")
        try stage.pen.down(at: (400, 300), pressure: 0.1)
        try stage.pen.press(to: 0.9)
        let claimed = bridge.waitForObjects { _ in decisions().contains { $0["winner"] as? String == "right-click" } }
        try stage.pen.up()
        #expect(claimed, "\(decisions())")
        #expect(bridge.objects.filter { $0["ownership"] as? String == "bug" }.isEmpty, "\(bridge.objects)")
    }
}
