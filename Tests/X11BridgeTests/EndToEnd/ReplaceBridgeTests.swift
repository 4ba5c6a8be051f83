import CX11
import Foundation
import Glibc
import Testing
import X11Bridge
import XorgTestSupport

/// `run --replace`, the systemd unit's: `systemctl --user restart gesture-bridge` after an
/// upgrade, while the bridge the XDG autostart entry started at login (the old program) runs,
/// leaves the new program running, not the old.
@Suite("Taking the display over (run --replace)", .requiresXorg, .serialized)
final class ReplaceBridgeTests: StageSuite {
    @Test("run --replace beside a running bridge: the old one exits 75, the new one runs and a deep press right-clicks once")
    func replacesRunning() throws {
        let old = try stage.bridge()
        let new = try stage.bridge(["--replace"])
        #expect(old.child.waitForExit(timeout: 5) == 75, "\(old.log)")
        #expect(old.log.contains("another gesture-bridge took over display \(stage.server.displayName)"), "\(old.log)")
        #expect(old.events(.stopping).map(\.reason) == ["taken-over"], "the stream says why: \(old.lines)")
        #expect(new.log.contains("took display \(stage.server.displayName) over from the gesture-bridge (process \(old.child.pid))"),
                "\(new.log)")
        #expect(!new.lines.contains { $0.ownership?.ownership == .cannotHold }, "it holds its grabs: \(new.lines)")

        try SecondBridgeTests.expectActsAlone(stage, new)
        #expect(old.actions.isEmpty, "\(old.lines)")
        // Found in review of a caregiver's setup: run over ssh to watch a person's presses, then
        // stopped, it left them no bridge until their next login, and said nothing of it.
        #expect(new.log.contains("process \(old.child.pid)) does not run any more") && new.log.contains("systemctl --user start gesture-bridge"),
                "how to have the bridge it replaced back: \(new.log)")
    }

    @Test("run --replace while the running bridge holds a pen press back: the press reaches the window whole, nothing stays held, the new one acts")
    func replacesHoldingPress() throws {
        let old = try stage.bridge(["--verbose"])
        // A light press the bridge holds back while it decides.
        try stage.pen.down(at: (300, 300), pressure: 0.3)
        #expect(old.ownership { $0.ownership == .holding }?.input == .press, "\(old.lines)")

        let new = try stage.bridge(["--replace"])
        #expect(old.child.waitForExit(timeout: 5) == 75, "\(old.log)")
        try stage.pen.up()
        #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).count >= 2 }, "\(old.log)\n\(new.log)")
        let click = buttonEvents(1, in: try stage.eventsUntilKeyTapped())
        #expect(click.map(\.kind) == [.buttonPress, .buttonRelease], "the held press reached the window whole")
        #expect(stage.buttonsStillHeld() == [], "nothing stays held")

        #expect(try new.waitUntilAsleep(quiet: 0.05))
        try SecondBridgeTests.expectActsAlone(stage, new, at: (320, 320))
    }

    /// The old bridge goes only once it has read that it lost the display (here it is stopped
    /// for a second): until then its grabs are in place, and the new one's would be refused.
    @Test("run --replace beside a bridge slow to go: the new one waits for it before it takes its grabs, then holds them and acts")
    func waitsForSlowBridge() throws {
        let old = try stage.bridge()
        old.child.kill(signal: SIGSTOP)
        let new = try BridgeProcess(["run", "--json", "--replace"], server: stage.server, ready: .immediately)
        usleep(1_000_000)
        #expect(new.lines.isEmpty, "it listened while the old one still ran: \(new.lines)")
        old.child.kill(signal: SIGCONT)
        #expect(old.child.waitForExit(timeout: 5) == 75, "\(old.log)")
        #expect(new.waitForEvents(.listening, timeout: 5), "\(new.log)")
        #expect(!new.lines.contains { $0.ownership?.ownership == .cannotHold }, "it holds its grabs: \(new.lines)")
        #expect(!new.log.contains("grab"), "\(new.log)")
        try SecondBridgeTests.expectActsAlone(stage, new)
    }

    @Test("the unit's run --replace and the autostart entry's run started at the same moment (a login): one runs, with its grabs, the other exits 75")
    func startedTogether() throws {
        try SecondBridgeTests.expectOneRuns([["run", "--json", "--replace"], ["run", "--json"]], on: stage, timeout: 8, listening: 8)
    }

    /// Found in review of a terminal's life: a bridge stopped with Ctrl-Z while `run --replace`
    /// waited for it, then continued with `fg` once the other had given up, read the take-over
    /// it had missed, let go and exited: no bridge ran.
    @Test("a bridge stopped while run --replace waits for it, continued once that one gave up: it keeps the display, and a deep press right-clicks once")
    func continuedAfterReplaceGaveUp() throws {
        let first = try stage.bridge()
        kill(first.child.pid, SIGSTOP)
        let new = try BridgeProcess(["run", "--json", "--replace"], server: stage.server, ready: .immediately)
        #expect(new.child.waitForExit(timeout: InstanceClaim.handOverGrace + 10) == 1, "the stimulus: it gave up: \(new.log)")
        kill(first.child.pid, SIGCONT)
        try stage.expectDeepPress(at: (300, 300), gives: 3)
        #expect(first.events(.stopping).isEmpty, "\(first.lines)")
        #expect(first.actions.filter { $0.action == "click" }.count == 1, "\(first.lines)")
        #expect(first.stop(with: SIGTERM) == 0)
    }

    /// A bridge stopped with Ctrl-Z (or one too old to hear that it lost the display) stays.
    @Test("run --replace when the running bridge does not go: it says so, naming it, and exits with status 1 without listening")
    func replacedStays() throws {
        let display = try #require(XOpenDisplay(stage.server.displayName))
        defer { XCloseDisplay(display) }
        let window = XCreateSimpleWindow(display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
        let pid = [UInt(getpid())]
        pid.withUnsafeBytes { bytes in
            _ = XChangeProperty(display, window, XInternAtom(display, "_NET_WM_PID", 0), XA_CARDINAL, 32, PropModeReplace,
                                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
        }
        XSetSelectionOwner(display, XInternAtom(display, "_GESTURE_BRIDGE", 0), window, UInt(CurrentTime))
        XSync(display, 0)

        let started = Date()
        let new = try BridgeProcess(["run", "--json", "--replace"], server: stage.server, ready: .immediately)
        #expect(new.child.waitForExit(timeout: InstanceClaim.handOverGrace + 10) == 1, "\(new.log)")
        #expect(Date().timeIntervalSince(started) >= InstanceClaim.handOverGrace - 1, "it waited for the running one")
        #expect(new.log.contains("the gesture-bridge (process \(getpid())) running on display \(stage.server.displayName) was asked to hand the display over"),
                "\(new.log)")
        #expect(new.log.contains("kill \(getpid())"), "\(new.log)")
        #expect(new.lines.isEmpty, "it never listened: \(new.lines)")
    }
}
