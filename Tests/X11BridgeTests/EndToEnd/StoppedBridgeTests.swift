import Foundation
import Glibc
import Testing
import XorgTestSupport

/// A bridge kept from running for a while (a busy or swapping machine; here SIGSTOP, then
/// SIGCONT): what the hand did meanwhile is judged by when it happened, not by when the bridge
/// got round to reading it, and a deadline that passed meanwhile is met as soon as it runs.
@Suite("A bridge stopped and continued", .requiresXorg, .serialized)
final class StoppedBridgeTests: StageSuite {
    /// Some 16 KB of samples wait in the socket, four times what one read takes in: the hold
    /// must not judge the press by its first quarter second (a still, light press) because its
    /// timers ran before the rest was read.
    @Test("a press climbing from 0.15 to 0.8 over a second while the bridge is stopped: a right-click alone once it runs",
          arguments: [ReplugOwnershipTests.Presser.pen, .touch])
    func slowClimbWhileStopped(presser: ReplugOwnershipTests.Presser) throws {
        let bridge = try stage.bridge()
        let device = try bridge.deviceID(presser.deviceName)
        stage.window.drain()
        bridge.child.kill(signal: SIGSTOP)
        // 200 samples at about 200 Hz: some 16 KB of raw events waiting in the socket.
        try presser.begin(stage, at: (400, 300), force: 0.15)
        for step in 1...200 {
            usleep(5_000)
            try presser.press(stage, to: 0.15 + 0.65 * Double(step) / 200)
        }
        bridge.child.kill(signal: SIGCONT)
        #expect(bridge.waitForLines { $0.decisions.contains { $0.device == device } }, "\(bridge.lines)")
        #expect(bridge.decisions.filter { $0.device == device }.map(\.decision) == [.claim], "\(bridge.lines)")
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 }, "\(bridge.lines)")
        try presser.lift(stage)
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
        #expect(buttonEvents(1, in: events).isEmpty, "no left press: \(events)\n\(bridge.lines)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
    }

    @Suite("with a mouse")
    final class WithMouse: MouseStageSuite {
        /// Found in review: the wait, interrupted by the stop, began again with the whole
        /// timeout it had before, so a deadline that passed while stopped came up to that much late.
        @Test("a mouse long press of 3 s, the bridge stopped for 3 s from 0.8 s on: the long press comes as soon as it runs again")
        func deadlineMetAfterStop() throws {
            let bridge = try stage.bridge(config: """
                bindings:
                  - name: hold
                    gesture: long-press
                    devices: [mouse]
                    duration: 3
                    action: {click: right}
                """)
            let mouse = try #require(stage.server.mouse, "the stage's server has a mouse")
            stage.window.drain()
            try mouse.press()
            // Past the decision timeout (0.5 s): the long press is the one deadline left, and the
            // bridge waits for it, 2.2 s ahead, when it is stopped.
            usleep(800_000)
            bridge.child.kill(signal: SIGSTOP)
            Thread.sleep(forTimeInterval: 3)
            let continued = Date()
            bridge.child.kill(signal: SIGCONT)
            #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 }, "\(bridge.lines)")
            // Due 0.8 s before the bridge ran again: it comes at once, not a whole wait (2.2 s) later.
            #expect(Date().timeIntervalSince(continued) < 1, "\(bridge.lines)")
            try mouse.release()
            #expect(stage.window.pointerState()?.buttonsHeld == [])
        }
    }
}
