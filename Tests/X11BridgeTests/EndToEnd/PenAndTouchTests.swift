import Foundation
import Testing
import GestureKit
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

    /// Where the pen's light press is while a finger presses deep beside it.
    enum PenPress: String, CaseIterable, CustomTestStringConvertible {
        /// Held back by the bridge, undecided: the master frozen, the touch queued behind it.
        case heldByBridge
        /// Given to the window: the window holds button 1 through the pen.
        case givenToWindow

        var testDescription: String { rawValue }
    }

    /// Found writing the re-plug cases of `ReplugOwnershipTests`: behind a pen press the bridge
    /// holds, the whole touch waits in the frozen master, so it has ended when the bridge's
    /// acceptance reaches the server, and Xorg keeps the button it emulates for it down until
    /// the next touch (dix counts it down only at an emulated touch end that is not replaced
    /// by an update for a listener still to accept).
    @Test("a touch deep press while the bridge holds the pen's light press back: one right-click, the pen's own click, nothing of the touch's stroke, a touch after it whole, no X error",
          arguments: [PenPress.heldByBridge])
    func touchDeepPressWhilePenPresses(pen penPress: PenPress) throws {
        // Only the force decides (a long decision timeout); `contact` says the bridge follows one.
        let bridge = try stage.bridge(config: ReplugOwnershipTests.config)
        let pen = try bridge.deviceID(VirtualPen.deviceName)
        let touch = try bridge.deviceID(VirtualTouchscreen.deviceName)
        switch penPress {
        case .heldByBridge:
            try stage.pen.down(at: (300, 300), pressure: 0.1)
            try stage.pen.press(to: 0.3)
            #expect(bridge.waitForLines { $0.gestures.contains { $0.gesture == "contact" && $0.device == pen } })
        case .givenToWindow:
            try stage.pen.down(at: (300, 300), pressure: 0.3)
            try stage.pen.press(to: 0.31)
            #expect(stage.window.waitForEvents(upTo: 6) { buttonEvents(1, in: $0).count == 1 }, "\(bridge.lines)")
        }
        try stage.touch.begin(at: (700, 300), pressure: 0.1)
        for force in [0.3, 0.5, 0.65, 0.95] {
            usleep(10_000)
            try stage.touch.update(pressure: force)
        }
        #expect(bridge.waitForLines { $0.decisions.contains { $0.device == touch && $0.decision == .claim } }, "\(bridge.lines)")
        if penPress == .heldByBridge {
            // The touch was decided while the bridge still held the pen's press.
            #expect(!bridge.decisions.contains { $0.device == pen }, "\(bridge.decisions)")
        }
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 }, "\(bridge.log)")
        try stage.touch.update(pressure: 0.2)
        try stage.touch.end()
        try stage.pen.up()
        #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).filter { $0.kind == .buttonRelease }.count >= 1 })
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)\n\(bridge.log)")
        let left = buttonEvents(1, in: events)
        #expect(left.filter { Int($0.sourceID) == pen }.map(\.kind) == [.buttonPress, .buttonRelease], "\(events)\n\(bridge.log)")
        #expect(left.filter { Int($0.sourceID) == touch }.isEmpty, "\(events)\n\(bridge.log)")
        #expect(bridge.events(.xError).isEmpty, "\(bridge.lines)")
        // Not every time: on a loaded machine X had let go of it once by then.
        withKnownIssue("Xorg keeps the button it emulates for a touch accepted after its end down (README, known limits)", isIntermittent: true) {
            #expect(stage.window.pointerState()?.buttonsHeld == [], "\(events)")
        } when: { penPress == .heldByBridge }
        // A touch at a person's pace after it arrives whole.
        #expect(try bridge.waitUntilAsleep(quiet: 0.05))
        stage.window.drain()
        try stage.touch.tap(at: (600, 400), pressure: 0.3)
        let tap = buttonEvents(1, in: stage.window.events { buttonEvents(1, in: $0).count >= 2 })
        #expect(tap.map(\.kind) == [.buttonPress, .buttonRelease], "\(tap)\n\(bridge.log)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
    }

    /// Found in review (a 2-in-1 convertible): a palm leaning on the touchscreen while the
    /// application had the pen's stroke right-clicked under it, the pointer jumping there from
    /// the bridge's click with the pen's button down: a line drawn to the palm, a menu opened
    /// mid-stroke. Such a touch is the application's, as without the bridge.
    @Test("a palm leaning on the touchscreen past the threshold while the window has the pen's stroke: no right-click, nothing of the bridge's in the stroke, the pen's click whole")
    func palmWhileTheWindowHasThePen() throws {
        let bridge = try stage.bridge(config: ReplugOwnershipTests.config)
        let pen = try bridge.deviceID(VirtualPen.deviceName)
        let touch = try bridge.deviceID(VirtualTouchscreen.deviceName)
        let xtest = try stage.serverDeviceID("Virtual core XTEST pointer")
        try stage.pen.down(at: (300, 300), pressure: 0.3)
        for x in stride(from: 310.0, through: 400, by: 10) { try stage.pen.move(to: (x, 300)) }
        // The stimulus: the stroke is the window's.
        #expect(stage.window.waitForEvents(upTo: 6) { buttonEvents(1, in: $0).count == 1 }, "\(bridge.lines)")
        try stage.touch.begin(at: (700, 500), pressure: 0.2)
        for force in [0.4, 0.6, 0.8, 0.95] {
            usleep(20_000)
            try stage.touch.update(pressure: force)
        }
        #expect(bridge.waitForLines { $0.decisions.contains { $0.device == touch } }, "\(bridge.lines)")
        let decided = bridge.decisions.filter { $0.device == touch }
        #expect(decided.map(\.reason) == [.penDown], "\(decided)")
        for x in stride(from: 410.0, through: 450, by: 10) { try stage.pen.move(to: (x, 300)) }
        try stage.touch.end()
        try stage.pen.up()
        #expect(stage.window.waitForEvents { $0.contains { $0.kind == .buttonRelease && $0.detail == 1 && Int($0.sourceID) == pen } })
        let events = stage.window.events(arrivingWithin: 0.3)
        #expect(events.filter { Int($0.sourceID) == Int(xtest) }.isEmpty, "the bridge sent nothing: \(events)")
        #expect(buttonEvents(3, in: events).isEmpty, "\(events)")
        #expect(buttonEvents(1, in: events).filter { Int($0.sourceID) == pen }.map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
        #expect(stage.buttonsStillHeld() == [])
        #expect(bridge.events(.xError).isEmpty, "\(bridge.lines)")
    }

    /// Between words the pen hovers above the page and the hand rests where it writes: the
    /// palm's long press, or its deep press on a pressure screen, right-clicked under it.
    @Test("a palm leaning on the touchscreen past the threshold while the pen hovers, the pen then pressing deep beside it: one right-click, the pen's; the palm's touch the window's, whole")
    func palmWhilePenHovers() throws {
        let bridge = try stage.bridge()
        let pen = try bridge.deviceID(VirtualPen.deviceName)
        let touch = try bridge.deviceID(VirtualTouchscreen.deviceName)
        try stage.pen.hover(to: (300, 300))
        try stage.touch.begin(at: (700, 500), pressure: 0.2)
        for (step, force) in [0.4, 0.6, 0.8, 0.95].enumerated() {
            usleep(20_000)
            try stage.pen.hover(to: (302 + Double(step) * 2, 300))
            try stage.touch.update(pressure: force)
        }
        // The stimulus: the bridge heard the touch lean past the threshold while the pen hovered.
        #expect(bridge.waitForLines { $0.gestures.contains { $0.gesture == "right-click" && $0.device == touch && $0.state == .failed } },
                "\(bridge.lines)")
        try stage.pen.down(at: (310, 300), pressure: 0.1)
        try stage.pen.press(to: 0.95)
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 }, "\(bridge.lines)")
        try stage.pen.up()
        try stage.touch.end()
        #expect(bridge.waitForLines { $0.decisions.contains { $0.device == touch } }, "\(bridge.lines)")
        #expect(bridge.decisions.filter { $0.device == touch }.map(\.reason) == [.penNear], "\(bridge.decisions)")
        #expect(bridge.decisions.filter { $0.device == pen }.map(\.decision) == [.claim], "\(bridge.decisions)")
        #expect(stage.window.waitForEvents { $0.contains { $0.kind == .buttonRelease && $0.detail == 1 && Int($0.sourceID) == touch } },
                "the palm's touch reaches the window: \(stage.window.recordedEvents)\n\(bridge.lines)")
        let events = try stage.eventsUntilKeyTapped()
        let right = buttonEvents(3, in: events)
        #expect(right.map(\.kind) == [.buttonPress, .buttonRelease] && right.allSatisfy { $0.rootX == 310 && $0.rootY == 300 },
                "the pen's right-click alone: \(events)")
        #expect(buttonEvents(1, in: events).filter { Int($0.sourceID) == pen }.isEmpty, "nothing of the pen's stroke: \(events)")
        #expect(stage.buttonsStillHeld() == [], "\(bridge.log)")
        #expect(bridge.events(.xError).isEmpty, "\(bridge.lines)")
    }

    /// Found in review: a palm of two contacts (the heel of the hand, the little finger's side)
    /// went to the window at once as fingers together, and the pen's deep press then went with
    /// its emulated button: no right-click.
    @Test("a palm of two contacts rests while the pen hovers, the pen then pressing deep beside it: one right-click, the pen's")
    func twoContactPalmThenPenDeepPress() throws {
        let bridge = try stage.bridge()
        let pen = try bridge.deviceID(VirtualPen.deviceName)
        let touch = try bridge.deviceID(VirtualTouchscreen.deviceName)
        try stage.pen.hover(to: (300, 300))
        try stage.touch.begin(id: 0, at: (700, 500), pressure: 0.2)
        usleep(20_000)
        try stage.pen.hover(to: (302, 300))
        try stage.touch.begin(id: 1, at: (650, 470), pressure: 0.1)
        for step in 0..<3 {
            usleep(20_000)
            try stage.pen.hover(to: (304 + Double(step) * 2, 300))
        }
        // The stimulus: both contacts reached the bridge, neither decided yet.
        #expect(bridge.waitForLines { $0.gestures.filter { $0.gesture == "right-click" && $0.device == touch && $0.state == .failed }.count >= 2 },
                "\(bridge.lines)")
        #expect(bridge.decisions.filter { $0.device == touch }.isEmpty, "\(bridge.decisions)")
        try stage.pen.down(at: (310, 300), pressure: 0.1)
        try stage.pen.press(to: 0.95)
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 }, "\(bridge.lines)")
        try stage.pen.up()
        try stage.touch.end(id: 1)
        try stage.touch.end(id: 0)
        #expect(bridge.waitForLines { $0.decisions.filter { $0.device == touch }.count >= 2 }, "\(bridge.lines)")
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "the pen's right-click: \(events)")
        #expect(bridge.decisions.filter { $0.device == pen }.map(\.decision) == [.claim], "\(bridge.decisions)")
        #expect(bridge.decisions.filter { $0.device == touch }.map(\.reason) == [.penNear, .penNear], "\(bridge.decisions)")
        #expect(stage.buttonsStillHeld() == [], "\(bridge.log)")
        #expect(bridge.events(.xError).isEmpty, "\(bridge.lines)")
    }

    /// Found by the chaos tier's palm step (seed 139, episodes 3, 68, 73, 120, 127, 144; six of
    /// some 80 such steps, none in 8 replays of the plan nor here): a palm resting beside the
    /// hovering pen, the pen's deep press, the pen lifted and the palm lifted at once after it:
    /// the palm's touch, handed over at its lift, never reached the window, and the core pointer
    /// kept button 1 down (README, known limits). The plan that showed it, for `gesture-chaos
    /// --plan`: [{"busy":false,"number":3,"seed":139,"steps":[{"drag":{"_0":"touch","by":{"x":108,
    /// "y":-87},"from":{"x":505,"y":287},"steps":4}},{"palmWhilePenHovers":{"at":{"x":363,"y":336},
    /// "contacts":2,"lean":true}},{"palmWhilePenHovers":{"at":{"x":665,"y":353},"contacts":1,
    /// "lean":false}},{"tap":{"_0":"pen","at":{"x":607,"y":397}}}]}]. This plays the step twenty
    /// times and has not failed here.
    @Test("a palm beside the hovering pen, the pen's deep press, then pen and palm lifted together, twenty times: one right-click each, the palm's touch whole, nothing held")
    func palmLiftedWithThePen() throws {
        let bridge = try stage.bridge()
        for round in 0..<20 {
            let x = 200 + Double(round % 10) * 40
            stage.window.drain()
            try stage.pen.hover(to: (x - 10, 300))
            usleep(10_000)
            try stage.pen.hover(to: (x - 8, 300))
            try stage.touch.begin(id: UInt32(round % 8), at: (x + 150, 400), pressure: 0.2)
            for step in 0..<2 {
                usleep(10_000)
                try stage.pen.hover(to: (x - 4 + Double(step), 300))
                try stage.touch.update(id: UInt32(round % 8), pressure: 0.25)
            }
            try stage.pen.down(at: (x, 300), pressure: 0.1)
            for force in [0.3, 0.6, 0.95] {
                usleep(10_000)
                try stage.pen.press(to: force)
            }
            usleep(50_000)
            try stage.pen.up()
            try stage.touch.end(id: UInt32(round % 8))
            let events = stage.window.events(waitingUpTo: 2) { buttonEvents(3, in: $0).count >= 2 && buttonEvents(1, in: $0).count >= 2 }
            #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "round \(round): \(events)")
            #expect(buttonEvents(1, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "round \(round): \(events)")
            #expect(stage.buttonsStillHeld(timeout: 1) == [], "round \(round): \(events)\n\(bridge.lines.suffix(12))")
            #expect(try bridge.waitUntilAsleep(quiet: 0.3))
        }
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

    @Test("a finger's tap lifted while the bridge holds a pen's press back, the pen then pressing deep: the window gets the tap whole and the right-click")
    func tapBehindHeldPenThenDeep() throws {
        let bridge = try stage.bridge(["--verbose"], config: ReplugOwnershipTests.config)
        let touchID = try bridge.deviceID(VirtualTouchscreen.deviceName)
        let penID = try bridge.deviceID(VirtualPen.deviceName)
        func began(_ device: Int) -> Bool {
            bridge.waitForLines { $0.gestures.contains { $0.gesture == "contact" && $0.device == device && $0.state == .began } }
        }
        try stage.touch.begin(at: (700, 300), pressure: 0.3)
        #expect(began(touchID), "\(bridge.lines)")
        try stage.pen.down(at: (300, 300), pressure: 0.1)
        try stage.pen.press(to: 0.3)
        #expect(began(penID), "\(bridge.lines)")
        try stage.touch.end()
        #expect(bridge.ownership { $0.ownership == .replayed && $0.device == touchID } != nil, "\(bridge.lines)")
        try stage.pen.press(to: 0.95)
        #expect(bridge.waitForLines { $0.decisions.contains { $0.device == penID && $0.decision == .claim } }, "\(bridge.lines)")
        try stage.pen.up()
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 && buttonEvents(1, in: $0).count >= 2 }, "\(bridge.lines)")
        let events = try stage.eventsUntilKeyTapped()
        let left = buttonEvents(1, in: events)
        #expect(left.map(\.kind) == [.buttonPress, .buttonRelease] && left.allSatisfy { Int($0.sourceID) == touchID },
                "the finger's tap: \(events)")
        #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
        #expect(bridge.ownerships.filter { $0.ownership == .bug }.isEmpty, "\(bridge.lines)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
    }

    /// Found in review: any action that failed let go of every button the bridge held, though
    /// a failed action presses nothing (a command not found, a key with no keycode).
    @Test("a finger's deep press presses the middle button, then runs a command that is not there: the button stays down until the finger lifts")
    func failedActionKeepsHeldButton() throws {
        let bridge = try stage.bridge(config: """
            decision-timeout: 5
            bindings:
              - name: middle-drag-and-note
                gesture: deep-press
                devices: [touch]
                threshold: 0.7
                action: [{press: 2}, {command: [gesture-bridge-test-no-such-command]}]
                on-end: {release: 2}
            """)
        try stage.touch.begin(at: (700, 300), pressure: 0.1)
        for force in [0.3, 0.5, 0.65, 0.95] {
            usleep(10_000)
            try stage.touch.update(pressure: force)
        }
        // The stimulus: the command was tried, and failed.
        #expect(bridge.waitForEvents(.actionFailed), "\(bridge.lines)")
        // The press action's line comes before its press reaches the server: waited for there.
        #expect(stage.window.waitForEvents { buttonEvents(2, in: $0).count >= 1 }, "\(bridge.lines)")
        #expect(buttonEvents(2, in: try stage.eventsUntilKeyTapped()).map(\.kind) == [.buttonPress], "still held")
        try stage.touch.end()
        #expect(stage.window.waitForEvents { buttonEvents(2, in: $0).count >= 2 }, "\(bridge.lines)")
        #expect(buttonEvents(2, in: stage.window.recordedEvents).map(\.kind) == [.buttonPress, .buttonRelease])
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        #expect(bridge.events(.xError).isEmpty, "\(bridge.lines)")
    }
}
