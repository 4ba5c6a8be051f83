import CX11
import Foundation
import GestureKit
import Glibc
import Testing
import XorgTestSupport

/// The running bridge under faults: its X server dies, its config breaks, a device goes away
/// mid-press, a bound command hangs or fails.
@Suite("A running bridge survives faults", .requiresXorg, .serialized)
final class FaultTests: StageSuite {
    @Test("a config replaced by a broken one, then SIGHUP: the error has file:line:column and deep presses still right-click")
    func brokenReload() throws {
        let path = try temporaryConfig(LiveSessionTests.config(click: "right"))
        let bridge = try stage.bridge(["--config", path])

        // A YAML syntax error (the flow mapping is never closed), then a value out of range.
        let broken = [
            ("bindings:\n  - name: hard-press\n    gesture: deep-press\n    action: {click: middle\n", "\(path):5:1:"),
            ("bindings:\n  - name: hard-press\n    gesture: deep-press\n    threshold: 1.7\n    action: {click: middle}\n",
             "\(path):4:16:"),
        ]
        for (round, (text, place)) in broken.enumerated() {
            try replaceFile(path, with: text)
            bridge.child.kill(signal: SIGHUP)
            #expect(bridge.waitForEvents(.configRejected, count: round + 1), "\(bridge.log)")
            let rejected = bridge.events(.configRejected)
            #expect(rejected.count == round + 1)
            #expect((rejected.last?.message)?.contains(place) == true, "\(rejected)")
            stage.window.drain()
            try LiveSessionTests.deepPress(stage.server, at: (200 + 50 * Double(round), 200))
            let events = stage.window.events(until: Self.released(3))
            #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
            #expect(buttonEvents(2, in: events + stage.window.drain()).isEmpty)
            #expect(stage.window.pointerState()?.buttonsHeld == [])
        }
        #expect(bridge.stop(with: SIGTERM) == 0)
    }

    /// What the bridge is doing with the pen's press when the pen goes away.
    enum HeldPress: String, CaseIterable, CustomTestStringConvertible {
        /// Undecided: frozen at the master by the bridge's synchronous grab.
        case frozen
        /// Recognized as a deep press and kept: the bridge right-clicked and owns the stroke.
        case claimed
        /// Kept, and a press binding holds the middle button down through XTest until it ends.
        case holdingButton

        var testDescription: String { rawValue }
    }

    @Test("the pen disabled while the bridge holds its press: nothing stays pressed, grabbed or frozen",
          arguments: HeldPress.allCases)
    func penDisabledMidPress(held: HeldPress) throws {
        // A long decision timeout: only the pen going away, never the timeout, can end the hold.
        let config = held == .holdingButton ? ReleaseTests.holdConfig : HeldInputRecoveryTests.penOnlyConfig
        let screen = try #require(OverlayWindowLister(displayName: stage.server.displayName))
        defer { screen.close() }
        let bridge = try stage.bridge(["--verbose", "--show-touches"], config: config)

        switch held {
        case .frozen:
            try stage.pen.down(at: (300, 300), pressure: 0.2)
            // Its contact marker shows that the bridge has the press.
            #expect(screen.waitForMarker(at: (300, 300)), "\(bridge.log)")
            let decided = bridge.ownerships.filter { [.kept, .replayed].contains($0.ownership) }
            #expect(decided.isEmpty, "decided before the pen went away: \(decided)")
        case .claimed:
            try stage.pen.down(at: (300, 300), pressure: 0.1)
            try stage.pen.press(to: 0.9)
            #expect(bridge.ownership { $0.ownership == .kept }?.winner == "right-click", "\(bridge.log)")
        case .holdingButton:
            try stage.pen.down(at: (300, 300), pressure: 0.1)
            try stage.pen.press(to: 0.9)
            #expect(ReleaseTests.middle(.buttonPress)(stage.window.events(until: ReleaseTests.middle(.buttonPress))))
            #expect(stage.window.pointerState()?.buttonsHeld.contains(2) == true)
        }
        #expect(try stage.runTool("/usr/bin/xinput", ["disable", "test-pen"]) == 0)
        #expect(bridge.waitForLines { $0.events(.deviceDisabled).contains { $0.name == "test-pen" } },
                "\(bridge.log)")
        if held == .holdingButton {
            let afterwards = stage.window.events(until: ReleaseTests.middle(.buttonRelease))
            #expect(ReleaseTests.middle(.buttonRelease)(afterwards), "\(afterwards)")
        }
        _ = stage.window.drain()
        // The bridge prints the pen's going away before what it does about it reaches the server:
        // the buttons held and another client's grab are read until they show it.
        #expect(stage.buttonsStillHeld() == [], "\(bridge.log)")

        // Another client can grab the pointer: no grab of the bridge's is left, nothing is frozen.
        let grabbed = poll(timeout: 3, every: 0.02, { Self.grabPointer(stage.server) }, until: { $0 == GrabSuccess })
        #expect(grabbed == GrabSuccess, "\(bridge.log)")
        // The touchscreen, on the same master pointer, and the keyboard still reach the window.
        try stage.touch.tap(at: (600, 400), pressure: 0.2)
        let touched = stage.window.events(until: Self.released(1))
        #expect(buttonEvents(1, in: touched).map(\.kind) == [.buttonPress, .buttonRelease], "\(touched)\n\(bridge.log)")
        #expect(touched.contains { $0.kind == .buttonPress && $0.rootX == 600 && $0.rootY == 400 })
        try stage.server.keyboard.tap(keycode: 38)
        let typed = stage.window.events { $0.contains { $0.kind == .keyRelease } }
        #expect(typed.contains { $0.kind == .keyPress && $0.detail == 38 }, "\(typed)")
        // And another client's XTest click.
        #expect(try stage.runTool("/usr/bin/xdotool", ["mousemove", "700", "450", "click", "2"]) == 0)
        let clicked = stage.window.events(until: Self.released(2))
        #expect(buttonEvents(2, in: clicked).map(\.kind) == [.buttonPress, .buttonRelease], "\(clicked)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        #expect(bridge.stop(with: SIGTERM) == 0)
    }

    /// What XGrabPointer answers a new client: GrabSuccess, or AlreadyGrabbed / GrabFrozen while
    /// another client's grab holds the pointer.
    static func grabPointer(_ server: HeadlessXorg) -> Int32? {
        guard let display = XOpenDisplay(server.displayName) else { return nil }
        defer { XCloseDisplay(display) }
        let status = XGrabPointer(display, XDefaultRootWindow(display), 0, UInt32(ButtonPressMask), GrabModeAsync,
                                  GrabModeAsync, 0, 0, UInt(CurrentTime))
        XUngrabPointer(display, UInt(CurrentTime))
        XSync(display, 0)
        return status
    }

    /// A pen deep press runs `penCommand`; a touch deep press right-clicks.
    static func commandConfig(_ penCommand: [String]) -> String {
        let argv = penCommand.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            bindings:
              - name: pen-command
                gesture: deep-press
                devices: [pen]
                action: {command: [\(argv)]}
              - name: touch-click
                gesture: deep-press
                devices: [touch]
                action: {click: right}
            """
    }

    @Test("a bound command that hangs, is missing or fails never holds up the next gestures; failures are logged")
    func commandFaults() throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-\(UUID().uuidString).pid").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let hang = ["sh", "-c", "echo $$ >> \(pidFile); exec sleep 60"]
        let path = try temporaryConfig(Self.commandConfig(hang))
        let bridge = try stage.bridge(["--config", path])
        defer {
            // The hanging commands outlive the bridge by design; the test ends them.
            let pids = ((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
            for pid in pids { kill(pid, SIGKILL) }
        }
        func commandsRun() -> Int { bridge.actions.filter { $0.action == "command" }.count }

        // Two hanging commands; the touch's right-click between them comes at once.
        try LiveSessionTests.deepPress(stage.server, at: (200, 200))
        #expect(bridge.waitForLines { _ in commandsRun() == 1 })
        try stage.layPenAside(bridge)
        try expectPromptRightClick(stage.server, stage.window, at: (600, 400))
        let second = Date()
        try LiveSessionTests.deepPress(stage.server, at: (220, 200))
        #expect(bridge.waitForLines(timeout: 0.5) { _ in commandsRun() == 2 }, "\(bridge.log)")
        #expect(Date().timeIntervalSince(second) < 0.5)
        #expect(bridge.child.waitForOutput(timeout: 2) { _, _ in
            ((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").split(separator: "\n").count == 2
        }, "both hanging commands started")

        // A program that does not exist: logged with its name, and the next gesture works.
        try replaceFile(path, with: Self.commandConfig(["gesture-bridge-no-such-program", "x"]))
        bridge.child.kill(signal: SIGHUP)
        #expect(bridge.waitForEvents(.configReloaded))
        try LiveSessionTests.deepPress(stage.server, at: (240, 200))
        #expect(bridge.waitForEvents(.actionFailed), "\(bridge.log)")
        let missing = try #require(bridge.events(.actionFailed).first)
        #expect(missing.binding == "pen-command" && missing.kind == "command", "\(missing)")
        #expect(missing.action?.argv == ["gesture-bridge-no-such-program", "x"], "\(missing)")
        #expect(missing.message == "cannot run gesture-bridge-no-such-program: No such file or directory (not found in PATH)",
                "\(missing)")
        try stage.layPenAside(bridge)
        try expectPromptRightClick(stage.server, stage.window, at: (620, 400))

        // A program that exits with status 3: logged once it has exited.
        try replaceFile(path, with: Self.commandConfig(["sh", "-c", "exit 3"]))
        bridge.child.kill(signal: SIGHUP)
        #expect(bridge.waitForEvents(.configReloaded, count: 2))
        try LiveSessionTests.deepPress(stage.server, at: (260, 200))
        #expect(bridge.waitForEvents(.commandFailed), "\(bridge.log)")
        let exited = try #require(bridge.events(.commandFailed).first)
        #expect(exited.binding == "pen-command" && exited.argv == ["sh", "-c", "exit 3"], "\(exited)")
        let how = exited.message ?? ""
        #expect(how.hasPrefix("command sh (pid ") && how.hasSuffix(") exited with status 3"), "\(how)")
        #expect(bridge.events(.actionFailed).count == 1, "a command that ran is no failure to start it: \(bridge.lines)")
        try stage.layPenAside(bridge)
        try expectPromptRightClick(stage.server, stage.window, at: (640, 400))

        // Stopping does not wait for the commands still running.
        let stopping = Date()
        #expect(bridge.stop(with: SIGTERM) == 0)
        #expect(Date().timeIntervalSince(stopping) < 1)
        #expect(stage.window.pointerState()?.buttonsHeld == [])
    }

    /// A touch deep press at `point`: its right-click reaches the window within half a second of
    /// the force crossing the threshold, while the finger is still down.
    func expectPromptRightClick(_ server: HeadlessXorg, _ window: RecorderWindow, at point: PixelPoint) throws {
        window.drain()
        try server.touch.begin(at: point, pressure: 0.2)
        try server.touch.update(pressure: 1)
        let start = Date()
        let events = window.events(until: Self.released(3))
        let elapsed = Date().timeIntervalSince(start)
        try server.touch.end()
        #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
        #expect(elapsed < 0.5, "the right-click came \(Int(elapsed * 1000)) ms after the threshold")
        print("right-click \(Int(elapsed * 1000)) ms after the threshold, with a command hanging or failed")
    }

    static func released(_ button: Int32) -> ([RecordedEvent]) -> Bool {
        { events in events.contains { $0.kind == .buttonRelease && $0.detail == button } }
    }

    /// Replaces the file the way an editor saves it: a new file renamed over the old one.
    func replaceFile(_ path: String, with text: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("a bridge killed outright while its press action holds the middle button: the next bridge lets go of it as it starts, and a clean start sends nothing")
    func killedWhileButtonHeld() throws {
        let config = """
            decision-timeout: 5
            bindings:
              - name: middle-drag
                gesture: deep-press
                devices: [touch]
                action: {press: 2}
                on-end: {release: 2}
            """
        stage.window.drain()
        let first = try stage.bridge(config: config)
        #expect(try stage.eventsUntilKeyTapped().filter { $0.kind == .buttonPress || $0.kind == .buttonRelease }.isEmpty,
                "starting with nothing held sends no button")
        try stage.touch.begin(at: (400, 300), pressure: 0.1)
        for force in [0.4, 0.8, 0.95] {
            usleep(10_000)
            try stage.touch.update(pressure: force)
        }
        #expect(stage.window.waitForEvents { !buttonEvents(2, in: $0).isEmpty }, "\(first.lines)")
        #expect(first.stop(with: SIGKILL) != nil)
        try stage.touch.end()
        try stage.eventsUntilKeyTapped()
        #expect(stage.window.pointerState()?.buttonsHeld == [2], "the dead bridge's button stays down")

        // Another XTest client (an on-screen keyboard's drag) holds the right button meanwhile.
        let tool = try Self.XTestTool(stage.server)
        tool.button(3, down: true)
        #expect(stage.window.waitForEvents { !buttonEvents(3, in: $0).isEmpty })

        let second = try stage.bridge(config: config)
        #expect(stage.window.waitForEvents { buttonEvents(2, in: $0).count >= 2 }, "\(second.lines)")
        #expect(buttonEvents(2, in: stage.window.recordedEvents).map(\.kind) == [.buttonPress, .buttonRelease])
        #expect(!buttonEvents(3, in: try stage.eventsUntilKeyTapped()).contains { $0.kind == .buttonRelease },
                "the tool's button is not the bridge's to let go")
        #expect(stage.window.pointerState()?.buttonsHeld == [3])
        tool.button(3, down: false)
        #expect(stage.buttonsStillHeld() == [])
        #expect(first.events(.xError).isEmpty && second.events(.xError).isEmpty, "\(first.lines)\n\(second.lines)")
        #expect(second.stop(with: SIGTERM) == 0)
    }

    /// Found by a review of a day with accessibility tools: the bridge starting (a login, a
    /// restart by systemd, `run --replace`) sent a release to every button of the XTEST
    /// pointer, which every XTest client and MouseKeys share: a MouseKeys button lock, an
    /// on-screen keyboard's drag or `xdotool mousedown 1` was dropped where the pointer was.
    @Test("a button another XTest client holds as the bridge starts stays held: the bridge lets go only of what a bridge it follows left")
    func startLeavesOthersButton() throws {
        let tool = try Self.XTestTool(stage.server)
        tool.button(1, down: true)
        #expect(stage.window.waitForEvents { !buttonEvents(1, in: $0).isEmpty })
        stage.window.drain()
        let bridge = try stage.bridge()
        #expect(buttonEvents(1, in: try stage.eventsUntilKeyTapped()).isEmpty, "\(bridge.lines)")
        #expect(stage.window.pointerState()?.buttonsHeld == [1])
        tool.button(1, down: false)
        #expect(stage.buttonsStillHeld() == [])
        #expect(bridge.stop(with: SIGTERM) == 0)
    }

    /// Another client pressing and letting go of buttons through XTest, as an on-screen
    /// keyboard or `xdotool` does.
    final class XTestTool {
        let display: OpaquePointer

        init(_ server: HeadlessXorg) throws {
            display = try #require(XOpenDisplay(server.displayName))
        }

        deinit { XCloseDisplay(display) }

        func button(_ button: UInt32, down: Bool) {
            XTestFakeButtonEvent(display, button, down ? 1 : 0, 0)
            XSync(display, 0)
        }
    }

    @Suite("when its X server dies")
    final class WhenTheServerDies: ServerSuite {
        @Test("the X server killed under the bridge: it exits within a second, status 69, saying which display was lost")
        func serverKilled() throws {
            let bridge = try server.bridge(["--show-touches"])
            // A press held back by the bridge's grab, its decision still open, when the server dies:
            // its contact marker shows that the bridge has it. (The test's own connection closes
            // before the server dies: Xlib ends a process that loses one.)
            try server.pen.down(at: (300, 300), pressure: 0.2)
            let screen = try #require(OverlayWindowLister(displayName: server.displayName))
            #expect(screen.waitForMarker(at: (300, 300)), "\(bridge.log)")
            screen.close()
            #expect(bridge.decisions.isEmpty, "\(bridge.lines)")

            let killed = Date()
            server.crash()
            let status = bridge.child.waitForExit(timeout: 1.5)
            let elapsed = Date().timeIntervalSince(killed)
            #expect(status == 69, "exit status \(String(describing: status))\n\(bridge.log)")
            #expect(elapsed < 1, "exited \(Int(elapsed * 1000)) ms after the server was killed")
            #expect(bridge.log.contains("lost the connection to the X server on display \(server.displayName)"), "\(bridge.log)")
            #expect(bridge.log.contains("exiting with status 69"))
            #expect(bridge.log.contains("next login"))
            // Xlib's own last words ("X connection to :N broken") are not what the user reads.
            #expect(!bridge.log.contains("X connection to"), "\(bridge.log)")
            // Found in review of a --json reader: the stream said nothing of why it ended, and
            // the press still down ended as if lifted, with nothing before it to say otherwise.
            let stopping = bridge.lines.firstIndex { $0.event?.event == .stopping }
            #expect(stopping.flatMap { bridge.lines[$0].event?.reason } == "server-lost", "\(bridge.lines)")
            #expect(stopping.map { index in !bridge.lines[..<index].contains { $0.decision != nil } } == true,
                    "said before the press's end: \(bridge.lines)")
            print("bridge exited \(Int(elapsed * 1000)) ms after its X server was killed, status \(String(describing: status))")
        }

        @Test("the X server killed under the bridge: what it learned of the hand since the last change of levels is kept")
        func serverKilledKeepsLearning() throws {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-state-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: state) }
            let bridge = try server.bridge(environment: ["XDG_STATE_HOME": state])
            // Ordinary taps: the levels they start from still fit, so no change of levels is written.
            for index in 0..<3 {
                try server.pen.down(at: (200 + 40 * Double(index), 300), pressure: 0.1)
                try server.pen.move(to: (200 + 40 * Double(index), 300), pressure: 0.25)
                try server.pen.up()
            }
            #expect(bridge.waitForLines { $0.decisions.count >= 3 }, "\(bridge.lines)")
            #expect(bridge.lines.compactMap(\.learned).isEmpty, "\(bridge.lines)")

            server.crash()
            #expect(bridge.child.waitForExit(timeout: 1.5) == 69, "\(bridge.log)")
            let listed = try BridgeProcess(["learned", "--json"], server: server, environment: ["XDG_STATE_HOME": state],
                                           ready: .immediately)
            #expect(listed.child.waitForExit(timeout: 5) == 0, "\(listed.log)")
            let pen = try listed.printed(LearnedStateLine.self).first { $0.device == "test-pen" }
            #expect(pen?.ordinaryContacts == 3, "\(listed.child.output)")
        }

        @Test("the X server killed under record: it stops with status 69 and the trace holds what came before")
        func serverKilledWhileRecording() throws {
            let recording = try BridgeProcess(["record"], server: server, ready: .says("recording"))
            try server.pen.down(at: (100, 100), pressure: 0.5)
            try server.pen.up()
            #expect(recording.child.waitForOutput(timeout: 2) { output, _ in output.contains("\"end\"") })
            server.crash()
            #expect(recording.child.waitForExit(timeout: 1) == 69, "\(recording.log)")
            #expect(recording.log.contains("lost the connection to the X server on display \(server.displayName)"))
            let trace = try TraceReader.parse(recording.child.output, file: "recorded")
            #expect(trace.events.map(\.phase).filter { $0 != .hover } == [.begin, .end])
        }
    }
}
