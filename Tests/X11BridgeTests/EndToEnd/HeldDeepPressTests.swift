import Foundation
import Glibc
import Testing
import XorgTestSupport

/// A pen kept down after its deep press has right-clicked, as a hand does while the menu
/// opens, then lifted.
@Suite("A deep press held until its click arrives, then lifted", .requiresXorg, .serialized)
final class HeldDeepPressTests: StageSuite {
    @Test("the lift reaches the application as nothing at all", arguments: [0.0, 0.3])
    func liftAfterTheClick(pause: Double) throws {
        let bridge = try stage.bridge(["--verbose"])

        try stage.pen.down(at: (400, 300), pressure: 0.1)
        try stage.pen.press(to: 0.9)
        let clicked = stage.window.events { buttonEvents(3, in: $0).count >= 2 }
        #expect(buttonEvents(3, in: clicked).map(\.kind) == [.buttonPress, .buttonRelease])
        // The hand rests on the pen as long as it likes.
        Thread.sleep(forTimeInterval: pause)
        try stage.pen.up()
        #expect(bridge.ownership { $0.ownership == .kept }?.winner == "right-click", "\(bridge.log)")
        #expect(bridge.waitForLines { $0.gestures.contains { $0.gesture == "right-click" && $0.state == .ended } },
                "the bridge has read the lift: \(bridge.lines)")
        let all = clicked + (try stage.eventsUntilKeyTapped())
        // The click reaches the window with no button of the pen held under it, so it starts no
        // implicit grab that would take the pen's lift: the window sees nothing of the pen.
        #expect(buttonEvents(1, in: all).isEmpty, "\(all)")
        #expect(clicked.filter { $0.detail == 3 }.allSatisfy { $0.buttonsHeld.allSatisfy { $0 == 3 } }, "\(clicked)")
        #expect(!all.contains { $0.kind == .buttonPress && $0.detail == 1 }, "\(all)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
    }

    @Test("a tap the instant after a kept stroke's lift reaches the window whole", )
    func tapRightAfterTheLift() throws {
        let bridge = try stage.bridge(["--verbose"])

        try stage.pen.down(at: (400, 300), pressure: 0.1)
        try stage.pen.press(to: 0.9)
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 })
        // Lift and tap again before the bridge has read the lift: stopped, it cannot.
        bridge.child.kill(signal: SIGSTOP)
        try stage.pen.up()
        try stage.pen.down(at: (420, 320), pressure: 0.3)
        try stage.pen.up()
        bridge.child.kill(signal: SIGCONT)

        let left = buttonEvents(1, in: stage.window.events { buttonEvents(1, in: $0).count >= 2 })
        // The kept stroke's device is still grabbed on its own when the new press comes, so the
        // press goes to that grab and never reaches the master (README, known limits). A hand
        // cannot lift and press again within the bridge's reaction time; this test can.
        withKnownIssue("a press of the same device within the bridge's reaction time after a kept stroke's lift is lost") {
            #expect(left.map(\.kind) == [.buttonPress, .buttonRelease], "\(bridge.log)")
        }
        #expect(!left.contains { $0.kind == .buttonPress && ($0.rootX != 420 || $0.rootY != 320) })
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        // The lost tap costs only itself: at a person's pace after it, a pen tap arrives whole
        // and a deep press right-clicks alone.
        #expect(try bridge.waitUntilAsleep(quiet: 0.05))
        try ReplugOwnershipTests.expectTap(stage, bridge, by: .pen, at: (500, 400))
        #expect(try bridge.waitUntilAsleep(quiet: 0.05))
        try ReplugOwnershipTests.expectRightClickOnly(stage, bridge, by: .pen, at: (520, 420))
    }
}
