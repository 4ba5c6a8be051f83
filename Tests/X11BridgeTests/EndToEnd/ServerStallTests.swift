import Foundation
import Glibc
import Testing
import XorgTestSupport

/// A busy machine: the X server kept from running (SIGSTOP, then SIGCONT) while a hand presses
/// on. The samples made meanwhile reach the server, and the bridge, once it runs again, stamped
/// with almost one time.
@Suite("A busy machine: the X server standing still mid-press", .requiresXorg, .serialized)
final class ServerStallTests: StageSuite {
    /// Found in review: the press was handed to the application as a press that had levelled
    /// off at 0.25, its deep press never came, and the window got the whole left stroke.
    @Test("a slow climb, the server stopped for 0.3 s at 0.25: a right-click alone")
    func serverStoodStillDuringTheClimb() throws {
        let bridge = try stage.bridge()
        let pen = try bridge.deviceID(VirtualPen.deviceName)
        stage.window.drain()
        let (x, y) = (400.0, 300.0)
        let width = Double(stage.server.width), height = Double(stage.server.height)
        func valuators(_ force: Double) -> InputTestValuators {
            InputTestValuators(x: x * 65536 / width, y: y * 65536 / height, pressure: (min(1, force) * 1000).rounded())
        }
        // 0.3 of the range a second, a sample every 5 ms.
        var force = 0.05
        try stage.pen.down(at: (x, y), pressure: force)
        while force < 0.25 {
            usleep(5_000)
            force += 0.0015
            try stage.pen.press(to: force)
        }
        // The server stands still for 0.3 s; the hand presses on (written to the driver's
        // socket, read once the server runs again).
        let stopped = Date()
        #expect(kill(stage.server.processID, SIGSTOP) == 0)
        for _ in 0..<60 {
            usleep(5_000)
            force += 0.0015
            try stage.pen.connection.send(.motion(isAbsolute: true, valuators: valuators(force)))
        }
        #expect(Date().timeIntervalSince(stopped) >= 0.3, "the stall the test means")
        #expect(kill(stage.server.processID, SIGCONT) == 0)
        while force < 0.85 {
            usleep(5_000)
            force += 0.0015
            try stage.pen.press(to: force)
        }
        #expect(bridge.waitForLines { $0.decisions.contains { $0.device == pen } }, "\(bridge.lines)")
        let decisions = bridge.decisions.filter { $0.device == pen }
        #expect(decisions.map(\.decision) == [.claim], "\(decisions)")
        try stage.pen.up()
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
        #expect(buttonEvents(1, in: events).isEmpty, "no left press: \(events)")
        #expect(stage.buttonsStillHeld() == [])
    }
}
