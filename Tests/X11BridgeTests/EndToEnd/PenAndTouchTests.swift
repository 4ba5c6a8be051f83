import Foundation
import Testing
import XorgTestSupport

/// A pen and a finger at once, on the one master pointer they share: while the bridge holds
/// the pen's press the master is frozen, and a touch made meanwhile waits in its queue.
@Suite("Pen and touch at once", .requiresXorg, .serialized)
final class PenAndTouchTests: StageSuite {
    /// Found by the chaos tier (seed 3, episode 71): the touch's raw events reach the bridge at
    /// once, its decision with them, but the master has not begun the touch yet, so accepting or
    /// rejecting it then fails with BadValue, and the bridge let go of everything it held.
    @Test("a touch tap while the bridge holds a pen press: the tap and the pen's own click arrive, no X error")
    func touchTapDuringHeldPenPress() throws {
        let bridge = try stage.bridge(["--verbose"])
        try stage.pen.down(at: (300, 300), pressure: 0.2)
        try stage.touch.tap(at: (700, 300), pressure: 0.3)
        // The touch was decided from its raw events while the pen's press still held the master.
        #expect(bridge.waitForLines { $0.ownerships.contains { $0.ownership == .replayed && $0.input == .touch } },
                "\(bridge.lines)")
        try stage.pen.up()
        #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).filter { $0.kind == .buttonRelease }.count >= 2 })
        let clicks = buttonEvents(1, in: try stage.eventsUntilKeyTapped())
        #expect(clicks.map(\.kind) == [.buttonPress, .buttonRelease, .buttonPress, .buttonRelease], "\(clicks)\n\(bridge.log)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        #expect(bridge.events(.xError).isEmpty, "\(bridge.lines)")
        #expect(bridge.ownerships.filter { $0.ownership == .letGo }.isEmpty, "\(bridge.lines)")
    }

    @Test("a touch tap during a pen deep press: one right-click, the tap's click, nothing held, no X error")
    func touchTapDuringPenDeepPress() throws {
        let bridge = try stage.bridge(["--verbose"])
        try stage.pen.down(at: (300, 300), pressure: 0.1)
        try stage.pen.press(to: 0.5)
        try stage.touch.tap(at: (700, 300), pressure: 0.3)
        try stage.pen.press(to: 0.95)
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 })
        try stage.pen.up()
        #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).filter { $0.kind == .buttonRelease }.count >= 1 })
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)\n\(bridge.log)")
        #expect(buttonEvents(1, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)\n\(bridge.log)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        #expect(bridge.events(.xError).isEmpty, "\(bridge.lines)")

        // The pen is the application's again: a tap at a person's pace (after the bridge has read
        // the lift, README's known limits) is one whole click.
        #expect(bridge.waitForLines { $0.gestures.contains { $0.gesture == "right-click" && $0.state == .ended } })
        stage.window.drain()
        try stage.pen.down(at: (640, 500), pressure: 0.3)
        try stage.pen.up()
        let next = buttonEvents(1, in: stage.window.events { buttonEvents(1, in: $0).count >= 2 })
        #expect(next.map(\.kind) == [.buttonPress, .buttonRelease], "\(next)\n\(bridge.log)")
    }
}
