import Testing
@testable import GestureKit

/// A contact is settled once every gesture on it has ended or given up: its samples change
/// nothing until it lifts, so the bridge may stop reading them.
@Suite("Settled contacts: down, and nothing follows them any more")
struct SettledContactTests {
    static let rightClick = OwnershipDecisionTests.rightClick

    @Test("a deep press followed while it may deepen; settled once a drag; not settled once lifted")
    func dragSettles() {
        let script = GestureScript(Self.rightClick)
        script.pen.down(at: (100, 100), force: 0.1)
        #expect(!script.engine.isSettled(script.pen.key))
        script.clock.advance(by: 0.05)
        script.pen.move(to: (105, 100))
        #expect(!script.engine.isSettled(script.pen.key), "within the slop the press may still deepen")
        script.pen.move(to: (130, 100))
        #expect(script.engine.isSettled(script.pen.key), "a drag: no deep press any more")
        script.pen.lift()
        #expect(!script.engine.isSettled(script.pen.key), "a contact that is not down is not settled")
    }

    @Test("the decision timeout settles a light press held still")
    func timeoutSettles() {
        let script = GestureScript([Self.rightClick], decisionTimeout: 0.3)
        script.pen.down(at: (100, 100), force: 0.1)
        script.clock.advance(by: 0.29)
        #expect(!script.engine.isSettled(script.pen.key))
        script.clock.advance(by: 0.01)
        #expect(script.engine.isSettled(script.pen.key))
    }

    @Test("a deep press that began is followed until its force falls below the release")
    func endedDeepPressSettles() {
        let script = GestureScript(Self.rightClick)
        script.pen.down(at: (100, 100), force: 0.1)
        script.pen.press(to: 0.9)
        #expect(!script.engine.isSettled(script.pen.key), "a deep press reports force changes while deep")
        script.pen.press(to: 0.2)
        #expect(script.engine.isSettled(script.pen.key))
    }

    @Test("an observing gesture follows the whole contact, decided or not")
    func observingFollows() {
        let script = GestureScript(Binding(name: "pressure", recognizer: .force(.init())))
        script.pen.down(at: (100, 100), force: 0.1)
        script.pen.move(to: (300, 100))
        script.clock.advance(by: 2)
        script.pen.press(to: 0.6)
        #expect(!script.engine.isSettled(script.pen.key))
    }

    @Test("samples may come late only to contacts a knob has claimed and nothing else follows")
    func lateInputOnlyForKnobs() {
        let script = GestureScript(ArbitrationTests.deepPress("right-click", threshold: 0.75, button: 3), ArbitrationTests.volume)
        #expect(!script.engine.acceptsLateInput, "nothing down")
        script.touchscreen.down(at: (600, 500), force: 0.1)
        #expect(script.engine.acceptsLateInput, "claimed by the knob; the deep press is out")
        script.pen.down(at: (100, 100), force: 0.1)
        #expect(!script.engine.acceptsLateInput, "an undecided press beside it wants every sample")
        script.pen.lift()
        #expect(script.engine.acceptsLateInput)
        script.touchscreen.lift()
        #expect(!script.engine.acceptsLateInput)
    }

    @Test("a deep press that began is never read late")
    func deepPressNeverLate() {
        let script = GestureScript(Self.rightClick)
        script.pen.down(at: (100, 100), force: 0.1)
        script.pen.press(to: 0.9)
        #expect(!script.engine.acceptsLateInput)
    }

    @Test("a contact no binding listens to is settled from the start")
    func unboundSettles() {
        let script = GestureScript(Binding(name: "touch-only", recognizer: .deepPress(.init()), devices: [.kind(.touch)],
                                           onStart: [.click(button: 3)]))
        script.pen.down(at: (100, 100), force: 0.1)
        #expect(script.engine.isSettled(script.pen.key))
    }
}
