import Foundation
import Glibc
import Testing
import XorgTestSupport

/// The running bridge under faults: its X server dies, its config breaks, a device goes away
/// mid-press, a bound command hangs or fails.
@Suite("A running bridge survives faults", .requiresXorg, .serialized)
struct FaultTests {
    @Test("the X server killed under the bridge: it exits within a second, status 69, saying which display was lost")
    func serverKilled() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let bridge = try BridgeProcess(["run"], server: server)
        // A press held back by the bridge's grab, its decision still open, when the server dies.
        try server.pen.down(at: (300, 300), pressure: 0.2)
        usleep(150_000)

        let killed = Date()
        server.crash()
        let status = bridge.child.waitForExit(timeout: 1.5)
        let elapsed = Date().timeIntervalSince(killed)
        #expect(status == 69, "exit status \(String(describing: status))\n\(bridge.log)")
        #expect(elapsed < 1, "exited \(Int(elapsed * 1000)) ms after the server was killed")
        #expect(bridge.log.contains("lost the connection to the X server on display \(server.displayName)"), "\(bridge.log)")
        #expect(bridge.log.contains("exiting with status 69"))
        #expect(bridge.log.contains("service manager"))
        // Xlib's own last words ("X connection to :N broken") are not what the user reads.
        #expect(!bridge.log.contains("X connection to"), "\(bridge.log)")
        print("bridge exited \(Int(elapsed * 1000)) ms after its X server was killed, status \(String(describing: status))")
    }
}
