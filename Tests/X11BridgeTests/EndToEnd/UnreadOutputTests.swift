import Foundation
import Glibc
import GestureKit
import Testing
import XorgTestSupport

/// Found in review of a kiosk's weeks: the bridge wrote its output lines from its event loop,
/// so a reader who stopped reading (a terminal paused with Ctrl-S, a pipe into a pager) froze
/// every press it held back, for every application, and SIGTERM went unread; and output that
/// could not be written (a full disk under `~/.xsession-errors`) stopped the bridge at the
/// first gesture, the next deep press a left click.
@Suite("Output nobody reads, or that cannot be written", .requiresXorg, .serialized)
final class UnreadOutputTests: StageSuite {
    /// `count` deep presses of the pen, each lifted, and then a light tap, a little apart.
    func deepPressesThenTap(_ count: Int) throws {
        for index in 0..<count {
            let point: PixelPoint = (200 + Double(index % 10) * 40, 200 + Double(index / 10) * 40)
            try stage.pen.down(at: point, pressure: 0.1)
            for force in [0.3, 0.5, 0.65, 0.8, 0.95] {
                usleep(10_000)
                try stage.pen.press(to: force)
            }
            usleep(20_000)
            try stage.pen.up()
            usleep(60_000)
        }
        try stage.pen.down(at: (640, 500), pressure: 0.3)
        usleep(50_000)
        try stage.pen.up()
    }

    /// What the window should have got: `count` right-clicks, one left click after them, no
    /// left press during a deep press, nothing held.
    func expectRightClicks(_ count: Int, detail: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
        let came = stage.window.waitForEvents(upTo: 5) {
            buttonEvents(3, in: $0).count >= 2 * count && buttonEvents(1, in: $0).count >= 2
        }
        let events = stage.window.recordedEvents
        #expect(came, "\(buttonEvents(3, in: events).count / 2) right-clicks, left: \(buttonEvents(1, in: events).map(\.kind)); \(detail())",
                sourceLocation: sourceLocation)
        #expect(buttonEvents(1, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "only the tap's left click: \(events)",
                sourceLocation: sourceLocation)
        #expect(stage.buttonsStillHeld() == [], "nothing stays held", sourceLocation: sourceLocation)
    }

    @Test("its output unread (a pipe that fills, as a paused terminal's): every deep press still right-clicks, the tap clicks, and SIGTERM stops it")
    func outputUnread() throws {
        let bridge = try stage.bridge(["--verbose"])
        // A page: a few deep presses' lines, printed with every change of force, fill it.
        #expect(bridge.limitOutputPipe(to: 4096))
        stage.window.drain()
        try deepPressesThenTap(20)
        expectRightClicks(20, detail: "the bridge's log: \(bridge.log)")
        #expect(bridge.stop(with: SIGTERM) == 0, "stopped by SIGTERM with nothing read: \(bridge.log)")
        // It printed past what the pipe held: the stimulus did fill it.
        #expect(bridge.actions.count >= 3, "\(bridge.lines)")
    }

    /// Found in review (a sanitizer's run): with both outputs unread, stopping waited for each
    /// in turn, and for the output twice: SIGTERM took 6 s, where `run` gives them 2 s.
    @Test("both outputs unread (a terminal paused with Ctrl-S holds both): SIGTERM stops it within the 2 s it gives them")
    func bothUnreadStopPromptly() throws {
        let bridge = try stage.bridge(["--verbose"])
        #expect(bridge.limitOutputPipe(to: 4096))
        #expect(bridge.limitErrorPipe(to: 4096))
        stage.window.drain()
        try deepPressesThenTap(20)
        expectRightClicks(20, detail: "")
        let unread = bridge.child.unreadBytes
        #expect(unread.output > 0 && unread.error > 0, "nothing of either was read: \(unread)")
        let start = Date()
        bridge.child.kill(signal: SIGTERM)
        #expect(bridge.child.waitForExit(timeout: 10) == 0)
        let took = Date().timeIntervalSince(start)
        #expect(took < 4.5, "SIGTERM took \(took) s (each wait its own 2 s: 6)")
        #expect(bridge.actions.count >= 3, "it printed past what the pipe held: \(bridge.lines)")
    }

    @Test("its output's reader gone (a pipe into `head` closed): it stops at its next line, status 1, nothing held")
    func outputReaderGone() throws {
        let bridge = try stage.bridge()
        _ = bridge.lines
        bridge.child.closeOutput()
        try deepPressesThenTap(2)
        #expect(bridge.child.waitForExit(timeout: 5) == 1, "\(bridge.log)")
        #expect(stage.buttonsStillHeld() == [], "nothing stays held")
    }

    @Test("its output on a full disk: the deep presses go on right-clicking, and it keeps running")
    func outputOnFullDisk() throws {
        let bridge = try BridgeProcess(["run", "--json"], displayName: stage.server.displayName,
                                       ready: .says("listening on a"), outputFile: "/dev/full")
        stage.window.drain()
        try deepPressesThenTap(2)
        expectRightClicks(2, detail: "the bridge's log: \(bridge.log)")
        #expect(bridge.child.exitStatus == nil && bridge.child.waitForExit(timeout: 0.3) == nil, "still running: \(bridge.log)")
        #expect(bridge.stop(with: SIGTERM) == 0, "\(bridge.log)")
    }
}
