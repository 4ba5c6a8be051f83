import CX11
import Foundation
import Glibc
import Testing
import XorgTestSupport

/// One bridge per display: a second would find the grabs taken and act on every gesture again
/// (each deep press right-clicking twice), as when both the systemd unit and the autostart
/// entry start one.
@Suite("One bridge per display", .requiresXorg, .serialized)
final class SecondBridgeTests: StageSuite {
    /// The pen's deep press at `point` right-clicks once, `bridge` the only one acting; it then
    /// stops cleanly.
    static func expectActsAlone(_ stage: Stage, _ bridge: BridgeProcess, at point: PixelPoint = (300, 300),
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        try ReplugOwnershipTests.expectRightClickOnly(stage, bridge, by: .pen, at: point, sourceLocation: sourceLocation)
        #expect(bridge.actions.count == 1, "\(bridge.lines)", sourceLocation: sourceLocation)
        #expect(bridge.stop(with: SIGTERM) == 0, sourceLocation: sourceLocation)
    }

    /// Bridges run with `commands` at the same moment: within `timeout` one exits 75, and the
    /// other listens (within `listening`), holding its grabs, right-clicks, and stops cleanly.
    static func expectOneRuns(_ commands: [[String]], on stage: Stage, timeout: Double, listening: Double = 3,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bridges = try commands.map { try BridgeProcess($0, server: stage.server, ready: .immediately) }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, bridges.allSatisfy({ $0.child.waitForExit(timeout: 0.05) == nil }) {}
        let exited = bridges.filter { $0.child.waitForExit(timeout: 0.5) != nil }
        #expect(exited.count == 1 && exited.first?.child.waitForExit(timeout: 0) == 75, "\(bridges.map(\.log))", sourceLocation: sourceLocation)
        let running = try #require(bridges.first { $0.child.waitForExit(timeout: 0) == nil }, sourceLocation: sourceLocation)
        #expect(running.waitForEvents(.listening, timeout: listening), "\(running.lines)", sourceLocation: sourceLocation)
        #expect(!running.lines.contains { $0.ownership?.ownership == .cannotHold }, "it holds its grabs: \(running.lines)",
                sourceLocation: sourceLocation)
        try ReplugOwnershipTests.expectRightClickOnly(stage, running, by: .pen, at: (300, 300), sourceLocation: sourceLocation)
        #expect(running.stop(with: SIGTERM) == 0, sourceLocation: sourceLocation)
    }

    /// Found in review of X's protocol edges: any client may send any window any core event
    /// (`XSendEvent`). A made-up SelectionClear of the display's claim stopped the bridge as
    /// taken over (status 75, which the service does not restart), and a made-up root
    /// ConfigureNotify of 200x150 put every click in the top-left corner until a real resize.
    @Test("another client's made-up SelectionClear of the claim and ConfigureNotify of the root: the bridge runs on, its right-click where the pen pressed")
    func syntheticEvents() throws {
        let bridge = try stage.bridge()
        let other = try #require(XOpenDisplay(stage.server.displayName))
        defer { XCloseDisplay(other) }
        let claim = XInternAtom(other, "_GESTURE_BRIDGE", 0)
        let owner = XGetSelectionOwner(other, claim)
        #expect(owner != 0, "the bridge holds the display's claim")
        var clear = XEvent()
        clear.xselectionclear = XSelectionClearEvent(type: SelectionClear, serial: 0, send_event: 1, display: other, window: owner,
                                                     selection: claim, time: UInt(CurrentTime))
        #expect(XSendEvent(other, owner, 0, 0, &clear) != 0)
        let root = XDefaultRootWindow(other)
        var configure = XEvent()
        configure.xconfigure = XConfigureEvent(type: ConfigureNotify, serial: 0, send_event: 1, display: other, event: root, window: root,
                                               x: 0, y: 0, width: 200, height: 150, border_width: 0, above: 0, override_redirect: 0)
        #expect(XSendEvent(other, root, 0, StructureNotifyMask, &configure) != 0)
        XSync(other, 0)
        // Sent and read: the bridge has had them by the time a round trip of its own comes back.
        #expect(try bridge.waitUntilAsleep(quiet: 0.2))
        #expect(bridge.child.waitForExit(timeout: 0.5) == nil, "the bridge stopped: \(bridge.log)")
        #expect(bridge.events(.screenResized).isEmpty, "\(bridge.lines)")
        try ReplugOwnershipTests.expectRightClickOnly(stage, bridge, by: .pen, at: (400, 300))
        let clicks = buttonEvents(3, in: stage.window.drain())
        #expect(clicks.isEmpty || clicks.allSatisfy { $0.rootX == 400 && $0.rootY == 300 }, "\(clicks)")
        #expect(bridge.actions.last.map { $0.x == 400 && $0.y == 300 } == true, "\(bridge.lines)")
        #expect(bridge.stop(with: SIGTERM) == 0)
    }

    @Test("a second bridge on the display names the first, exits with status 75, and a deep press right-clicks once")
    func secondRefused() throws {
        let first = try stage.bridge()
        let second = try BridgeProcess(["run", "--json"], server: stage.server, ready: .immediately)
        #expect(second.child.waitForExit(timeout: 5) == 75, "\(second.log)")
        #expect(second.log.contains("another gesture-bridge (process \(first.child.pid)) is running on display \(stage.server.displayName)"),
                "\(second.log)")
        #expect(second.lines.isEmpty, "it never listened: \(second.lines)")

        try Self.expectActsAlone(stage, first)
    }

    /// Found in review: the README offers Ctrl-Z to pause the bridge; a second bridge then said
    /// `kill N`, which a stopped process only takes once it goes on.
    @Test("a second bridge while the first is stopped with Ctrl-Z: status 75, saying it is stopped and how to let it go on; once it goes on and stops, the second runs")
    func firstStopped() throws {
        let first = try stage.bridge()
        first.child.kill(signal: SIGSTOP)
        defer { first.child.kill(signal: SIGCONT) }
        let second = try BridgeProcess(["run", "--json"], server: stage.server, ready: .immediately)
        #expect(second.child.waitForExit(timeout: 5) == 75, "\(second.log)")
        #expect(second.log.contains("`kill -CONT \(first.child.pid)`"), "\(second.log)")
        first.child.kill(signal: SIGCONT)
        #expect(first.stop(with: SIGTERM) == 0)
        let third = try stage.bridge()
        try ReplugOwnershipTests.expectRightClickOnly(stage, third, by: .pen, at: (300, 300))
        #expect(third.stop(with: SIGTERM) == 0)
    }

    @Test("a bridge stopped as another starts (`pkill gesture-bridge; gesture-bridge run`): the new one waits for it and runs")
    func restartedAtOnce() throws {
        let first = try stage.bridge()
        first.child.kill(signal: SIGTERM)
        let second = try stage.bridge()
        #expect(first.child.waitForExit(timeout: 5) == 0, "\(first.log)")
        try Self.expectActsAlone(stage, second)
    }

    @Test("two bridges started at the same moment (the service and the autostart entry at login): one runs, with its grabs, the other exits 75")
    func startedTogether() throws {
        try Self.expectOneRuns([["run", "--json"], ["run", "--json"]], on: stage, timeout: 5)
    }

    @Test("a bridge another takes the display from (two started at once) stops with status 75 and leaves nothing held")
    func takenOver() throws {
        let bridge = try stage.bridge(["--verbose"])
        // A light press the bridge holds back while it decides.
        try stage.pen.down(at: (300, 300), pressure: 0.3)
        #expect(bridge.ownership { $0.ownership == .holding }?.input == .press, "\(bridge.lines)")

        // What a bridge started a moment later does: it takes the selection too.
        let display = try #require(XOpenDisplay(stage.server.displayName))
        defer { XCloseDisplay(display) }
        let window = XCreateSimpleWindow(display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
        XSetSelectionOwner(display, XInternAtom(display, "_GESTURE_BRIDGE", 0), window, UInt(CurrentTime))
        XSync(display, 0)

        #expect(bridge.child.waitForExit(timeout: 5) == 75, "\(bridge.log)")
        #expect(bridge.log.contains("another gesture-bridge took over display \(stage.server.displayName)"), "\(bridge.log)")
        try stage.pen.up()
        // The server lets the held press go once it has seen the bridge's connection close, which
        // can come after the bridge's exit: the click is waited for at the window.
        #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).count >= 2 }, "\(bridge.log)")
        let click = buttonEvents(1, in: try stage.eventsUntilKeyTapped())
        #expect(click.map(\.kind) == [.buttonPress, .buttonRelease], "the held press reached the window whole")
        #expect(stage.buttonsStillHeld() == [], "nothing stays held")
    }

    /// Bridges before this version claimed `_GESTURE_BRIDGE_S<screen>`: one still running after
    /// an upgrade, and a new one started by the unit or the autostart entry, would both act.
    @Test("a bridge of the version before (its claim on the screen's old selection) keeps a new one from running; the new one takes that name too")
    func olderBridge() throws {
        let display = try #require(XOpenDisplay(stage.server.displayName))
        defer { XCloseDisplay(display) }
        let oldName = XInternAtom(display, "_GESTURE_BRIDGE_S0", 0)
        let window = XCreateSimpleWindow(display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
        XSetSelectionOwner(display, oldName, window, UInt(CurrentTime))
        XSync(display, 0)
        let refused = try BridgeProcess(["run", "--json"], server: stage.server, ready: .immediately)
        #expect(refused.child.waitForExit(timeout: 5) == 75, "\(refused.log)")

        XSetSelectionOwner(display, oldName, 0, UInt(CurrentTime))
        XSync(display, 0)
        let bridge = try stage.bridge()
        // What an older bridge starting now looks at says this one runs.
        #expect(XGetSelectionOwner(display, oldName) != 0)
        #expect(bridge.stop(with: SIGTERM) == 0)
    }
}
