import Testing
@testable import GestureKit

@Suite("Recognizer state machines")
struct GestureStateMachineTests {
    // MARK: Continuous: possible → began → changed → ended | cancelled

    @Test("a deep press goes began, changed, ended")
    func continuousLifecycle() {
        let pen = RecognizerScript(.deepPress(.init(threshold: 0.75)))
        pen.down(at: (100, 100), force: 0.1)
        #expect(pen.states == [], "still possible")
        pen.press(frameByFrame: 0.8, 0.9)
        pen.aFrameLater().lift()
        expectSequence(pen.states, [.began, .changed, .ended])
        #expect(pen.bugs == [])
    }

    @Test("a continuous gesture taken away half-way is cancelled", arguments: [RecognizerKind.deepPress, .force])
    func continuousCancelled(kind: RecognizerKind) {
        let pen = RecognizerScript(.standard(kind))
        pen.down(at: (100, 100), force: 0.9)
        pen.aFrameLater().cancel()
        expectSequence(pen.states, [.began, .cancelled])
    }

    // MARK: Discrete: possible → recognized | failed

    @Test("a squeeze is recognized, and says nothing more")
    func discreteRecognized() {
        let pen = RecognizerScript(.squeeze(.init(threshold: 0.5)))
        pen.down(at: (100, 100), force: 0.1)
        pen.press(to: 0.6)
        pen.press(to: 0.9)
        pen.lift()
        expectSequence(pen.states, [.recognized])
    }

    @Test("a squeeze that never comes fails, and says nothing more")
    func discreteFailed() {
        let pen = RecognizerScript(.squeeze(.init(threshold: 0.5)))
        pen.down(at: (100, 100), force: 0.1)
        pen.press(to: 0.3)
        pen.lift()
        expectSequence(pen.states, [.failed])
    }

    // MARK: A fresh recognizer per contact

    @Test("a second deep press after an ended one behaves exactly like the first")
    func freshDeepPressPerContact() {
        let script = GestureScript(Binding(name: "right-click", recognizer: .deepPress(.init(threshold: 0.75)),
                                           onStart: [.click(button: 3)]))
        for x in [100.0, 300.0] {
            script.pen.down(at: (x, 100), force: 0.1)
            script.pen.press(frameByFrame: 0.8)
            script.pen.aFrameLater().lift()
            script.clock.advance(by: 0.2)
        }
        expectSequence(script.gestureStates("right-click"), [.began, .ended, .began, .ended])
        expectSequence(script.actions, [.click(button: 3, at: (100, 100)), .click(button: 3, at: (300, 100))])
        expectSequence(script.decisions, [.claimed(by: "right-click"), .claimed(by: "right-click")])
    }

    @Test("a squeeze after a failed one is judged afresh")
    func freshSqueezeAfterFailure() {
        let script = GestureScript(Binding(name: "squeeze", recognizer: .squeeze(.init(threshold: 0.5))))
        script.pen.down(at: (100, 100), force: 0.1)
        script.pen.lift()
        script.clock.advance(by: 0.2)
        script.pen.down(at: (100, 100), force: 0.1)
        script.pen.press(to: 0.6)
        expectSequence(script.gestureStates("squeeze"), [.failed, .recognized])
    }

    @Test("a second long press runs its own timer from its own touch-down")
    func freshLongPressTimer() {
        let script = GestureScript(Binding(name: "menu", recognizer: .longPress(.init(duration: 0.6))))
        script.mouse.down(at: (100, 100))
        script.clock.advance(by: 0.6)
        script.mouse.lift()
        script.clock.advance(by: 1)
        let secondDown = script.clock.now
        script.mouse.down(at: (100, 100))
        script.clock.advance(by: 0.5)
        #expect(script.gestureStates("menu") == [.recognized])
        script.clock.advance(to: secondDown + 0.6)
        expectSequence(script.gestureStates("menu"), [.recognized, .recognized])
        #expect(script.reports(of: "menu").last?.time == secondDown + 0.6)
    }

    // MARK: Impossible inputs are bugs, never crashes

    @Test("a move before the contact went down is reported as a bug", arguments: RecognizerKind.allCases)
    func moveBeforeDown(kind: RecognizerKind) {
        let pen = RecognizerScript(.standard(kind))
        pen.move(to: (100, 100), force: 0.5)
        pen.lift()
        #expect(pen.states == [])
        #expect(pen.bugs.count == 2)
        #expect(pen.bugs.allSatisfy { $0.hasPrefix("\(kind.rawValue):") }, "\(pen.bugs)")
    }

    @Test("a second down on the same contact is reported as a bug", arguments: RecognizerKind.allCases)
    func secondDown(kind: RecognizerKind) {
        let pen = RecognizerScript(.standard(kind))
        pen.down(at: (100, 100), force: 0.1)
        let before = pen.states
        pen.down(at: (100, 100), force: 0.1)
        #expect(pen.states == before, "the second down changes nothing")
        #expect(pen.bugs == ["\(kind.rawValue): a second down on the same contact"])
    }

    @Test("a timeout the recognizer did not ask for is reported as a bug", arguments: RecognizerKind.allCases)
    func unexpectedTimeout(kind: RecognizerKind) {
        let fresh = RecognizerScript(.standard(kind))
        fresh.timeout()
        #expect(fresh.states == [])
        #expect(fresh.bugs.count == 1)

        let down = RecognizerScript(.standard(kind))
        down.down(at: (100, 100), force: 0.1)
        let before = down.states
        down.timeout()  // at the touch-down time: before any deadline there is
        #expect(down.states == before)
        #expect(down.bugs.count == 1)
    }

    @Test("after a second down, the deep press carries on as if it never came")
    func deepPressSurvivesImpossibleInput() {
        let pen = RecognizerScript(.deepPress(.init(threshold: 0.75)))
        pen.down(at: (100, 100), force: 0.1)
        pen.down(at: (100, 100), force: 0.1)
        pen.timeout()
        pen.press(to: 0.8)
        pen.lift()
        expectSequence(pen.states, [.began, .ended])
        #expect(pen.bugs.count == 2)
    }
}
