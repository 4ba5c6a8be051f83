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

    @Test("a config replaced by a broken one, then SIGHUP: the error has file:line:column and deep presses still right-click")
    func brokenReload() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let path = try temporaryConfig(LiveSessionTests.config(click: "right"))
        let bridge = try BridgeProcess(["run", "--config", path], server: server)

        // A YAML syntax error (the flow mapping is never closed), then a value out of range.
        let broken = [
            ("bindings:\n  - name: hard-press\n    gesture: deep-press\n    action: {click: middle\n", "\(path):5:1:"),
            ("bindings:\n  - name: hard-press\n    gesture: deep-press\n    threshold: 1.7\n    action: {click: middle}\n",
             "\(path):4:16:"),
        ]
        for (round, (text, place)) in broken.enumerated() {
            try replaceFile(path, with: text)
            bridge.child.kill(signal: SIGHUP)
            #expect(bridge.waitForLog(containing: place), "\(bridge.log)")
            #expect(bridge.log.components(separatedBy: "keeping the bindings already running").count == round + 2)
            window.drain()
            try LiveSessionTests.deepPress(server, at: (200 + 50 * Double(round), 200))
            let events = window.events(until: Self.released(3))
            #expect(Self.buttons(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
            #expect(Self.buttons(2, in: events + window.drain()).isEmpty)
            #expect(window.pointerState()?.buttonsHeld == [])
        }
        #expect(bridge.stop(with: SIGTERM) == 0)
    }

    static func buttons(_ number: Int32, in events: [RecordedEvent]) -> [RecordedEvent] {
        events.filter { ($0.kind == .buttonPress || $0.kind == .buttonRelease) && $0.detail == number }
    }

    static func released(_ button: Int32) -> ([RecordedEvent]) -> Bool {
        { events in events.contains { $0.kind == .buttonRelease && $0.detail == button } }
    }

    /// Replaces the file the way an editor saves it: a new file renamed over the old one.
    func replaceFile(_ path: String, with text: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
