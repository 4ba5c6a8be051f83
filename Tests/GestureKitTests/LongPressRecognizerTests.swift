import Testing
@testable import GestureKit

@Suite("Long press")
struct LongPressRecognizerTests {
    /// Hold a mouse button still for 0.6 s for a context menu.
    let script = GestureScript(Binding(name: "menu", recognizer: .longPress(.init(duration: 0.6, slop: 12)),
                                       onStart: [.click(button: 3)]))
    var mouse: ScriptedDevice { script.mouse }
    var states: [GestureState] { script.gestureStates("menu") }

    @Test("holding still is recognized exactly at touch-down + duration, by the engine's timer")
    func recognizedAtTheDeadline() {
        script.clock.advance(to: 1)
        mouse.down(at: (100, 100))
        let deadline = script.clock.now + 0.6
        script.clock.advance(to: deadline.nextDown)
        #expect(states == [], "not a moment early")
        #expect(script.engine.nextDeadline == deadline)
        script.clock.advance(to: deadline)
        expectSequence(states, [.recognized])
        #expect(script.reports(of: "menu").map(\.time) == [deadline])
        expectSequence(script.actions, [.click(button: 3, at: (100, 100))])
        #expect(script.engineDecisions.map(\.time) == [deadline])
        expectSequence(script.decisions, [.claimed(by: "menu")])
    }

    @Test("a clock that jumps far past the deadline still recognizes it at the deadline")
    func lateClockStillExact() {
        mouse.down(at: (100, 100))
        script.clock.advance(by: 5)
        #expect(script.reports(of: "menu").map(\.time) == [0.6])
    }

    @Test("a timeout delivered late still dates the long press at its deadline")
    func lateTimeoutDatedAtDeadline() {
        let mouse = RecognizerScript(.longPress(.init(duration: 0.6)))
        mouse.down(at: (100, 100))
        #expect(mouse.recognizer.deadline == 0.6)
        mouse.clock.onAdvance = nil  // a driver that is late with its timers
        mouse.clock.advance(by: 2)
        mouse.timeout()
        expectSequence(mouse.states, [.recognized])
        #expect(mouse.reports.map(\.time) == [0.6])
        #expect(mouse.recognizer.deadline == nil)
    }

    @Test("a hand wobbling within the slop still makes a long press, where the pointer rests")
    func wobbleWithinSlop() {
        mouse.down(at: (100, 100))
        for spot: Spot in [(104, 100), (104, 105), (108, 104)] {
            script.clock.advance(by: 0.1)
            mouse.move(to: spot)
        }
        script.clock.advance(by: 0.3)
        expectSequence(states, [.recognized])
        expectSequence(script.actions, [.click(button: 3, at: (108, 104))])
    }

    @Test("moving past the slop before the time is up fails the long press")
    func failsOnDrag() {
        mouse.down(at: (100, 100))
        script.clock.advance(by: 0.3)
        mouse.move(to: (113, 100))
        expectSequence(states, [.failed])
        script.clock.advance(by: 1)
        expectSequence(states, [.failed])
        expectSequence(script.actions, [])
        #expect(script.engine.nextDeadline == nil)
    }

    @Test("letting go before the time is up fails the long press")
    func failsOnEarlyLift() {
        mouse.down(at: (100, 100))
        script.clock.advance(by: 0.59)
        mouse.lift()
        script.clock.advance(by: 1)
        expectSequence(states, [.failed])
        expectSequence(script.actions, [])
    }

    @Test("a long press keeps the contact past the decision timeout, until its own deadline")
    func outlastsTheDecisionTimeout() {
        let script = GestureScript(
            Binding(name: "right-click", recognizer: .deepPress(.init())),
            Binding(name: "menu", recognizer: .longPress(.init(duration: 0.8))),
            decisionTimeout: 0.5)
        script.pen.down(at: (100, 100), force: 0.1)
        script.clock.advance(to: 0.5)
        expectSequence(script.gestureStates("right-click"), [.failed])
        #expect(script.decisions == [], "the long press still holds the contact")
        script.clock.advance(to: 0.8)
        expectSequence(script.decisions, [.claimed(by: "menu")])
        #expect(script.engineDecisions.map(\.time) == [0.8])
    }
}
