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
        /// A press held still for `seconds`, then a pause before the next.
        func press(pressure: Double, seconds: Double = 0.7) throws {
            try stage.pen.down(at: (400, 300), pressure: pressure)
            usleep(UInt32(seconds * 1_000_000))
            try stage.pen.up()
            usleep(100_000)
        }
        func decisions() -> [[String: Any]] {
            bridge.objects.filter { $0["decision"] != nil && $0["device"] as? Int == pen }
        }

        // Held for a deep press that never comes: handed over at the decision timeout.
        try press(pressure: 0)
        try press(pressure: 0)
        #expect(bridge.waitForEvents("pressure-dead"), "\(bridge.objects)")
        #expect(bridge.events("pressure-dead").first?["device"] as? Int == pen)
        #expect(decisions().map { $0["reason"] as? String } == ["timeout", "timeout"], "\(decisions())")

        // Now only gestures that need no pressure listen (the knob, not here): handed over at once.
        try press(pressure: 0, seconds: 0.3)
        let third = try #require(decisions().dropFirst(2).first, "\(decisions())")
        #expect(third["reason"] as? String == "no-gesture" && (third["held"] as? Double ?? 1) < 0.1, "\(third)")

        // A press with force: the pressure counts again, and the next press right-clicks.
        try press(pressure: 0.3, seconds: 0.1)
        #expect(bridge.waitForEvents("pressure-alive"), "\(bridge.objects)")
        try stage.pen.down(at: (400, 300), pressure: 0.1)
        try stage.pen.press(to: 0.9)
        var claimed = false
        for _ in 0..<60 where !claimed {
            claimed = decisions().contains { $0["winner"] as? String == "right-click" }
            if !claimed { usleep(50_000) }
        }
        try stage.pen.up()
        #expect(claimed, "\(decisions())")
        #expect(bridge.objects.filter { $0["ownership"] as? String == "bug" }.isEmpty, "\(bridge.objects)")
    }
}
