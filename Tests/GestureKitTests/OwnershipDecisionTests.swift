import Testing
@testable import GestureKit

@Suite("Ownership decisions: keep a press or give it to the application")
struct OwnershipDecisionTests {
    static let rightClick = Binding(name: "right-click", recognizer: .deepPress(.init(threshold: 0.75, slop: 12)),
                                    onStart: [.click(button: 3)])

    @Test("a deep press that begins claims the contact, at the moment it begins")
    func claimOnBegin() {
        let script = GestureScript(Self.rightClick)
        script.pen.down(at: (100, 100), force: 0.1)
        #expect(script.decisions == [], "undecided while the press could still deepen")
        script.clock.advance(by: 0.2)
        script.pen.press(to: 0.8)
        expectSequence(script.engineDecisions, [.claim(script.pen.key, gesture: "right-click", time: 0.2, held: 0.2)])
        script.pen.lift()
        #expect(script.decisions.count == 1, "one decision per contact")
    }

    @Test("no owning gesture listening: released at touch-down as unbound")
    func releasedUnbound() {
        let script = GestureScript(Binding(name: "pressure", recognizer: .force(.init())))
        script.pen.down(at: (100, 100), force: 0.1)
        expectSequence(script.engineDecisions, [.release(script.pen.key, reason: .unbound, time: 0, held: 0)])
        #expect(script.engine.nextDeadline == nil, "nothing to wait for")
    }

    @Test("every owning gesture failed: released as soon as the last one fails")
    func releasedFailed() {
        let script = GestureScript(Self.rightClick)
        script.pen.down(at: (100, 100), force: 0.1)
        script.clock.advance(by: 0.1)
        script.pen.move(to: (130, 100))
        expectSequence(script.engineDecisions, [.release(script.pen.key, reason: .failed, time: 0.1, held: 0.1)])
        #expect(script.engine.nextDeadline == nil, "the decision timer is gone")
    }

    @Test("nothing begun by down + decision timeout: released at exactly that moment, and the deep press is out")
    func releasedOnTimeout() {
        let script = GestureScript([Self.rightClick], decisionTimeout: 0.3)
        script.clock.advance(to: 2)
        script.pen.down(at: (100, 100), force: 0.1)
        let deadline = script.clock.now + 0.3
        script.clock.advance(to: deadline.nextDown)
        #expect(script.decisions == [])
        script.clock.advance(to: deadline)
        expectSequence(script.engineDecisions, [.release(script.pen.key, reason: .timeout, time: deadline, held: deadline - 2)])
        expectSequence(script.gestureStates("right-click"), [.failed])
        script.clock.advance(by: 0.1)
        script.pen.press(to: 0.9)
        script.pen.lift()
        expectSequence(script.gestureStates("right-click"), [.failed])
        expectSequence(script.actions, [])
    }

    @Test("timers due before an event fire before it, even when nobody advanced the clock in between")
    func timeoutFiredByTheNextEvent() {
        var engine = GestureEngine(configuration: BindingSet(bindings: [Self.rightClick]),
                                   devices: [GestureScript.penDevice])
        let pen = GestureScript.penDevice.id
        _ = engine.handle(ContactEvent(time: 0, device: pen, contact: 0, phase: .begin, position: Point(x: 100, y: 100),
                                       pressure: 100))
        // The hard press comes after the contact was given to the application: no click.
        let late = engine.handle(ContactEvent(time: 2, device: pen, contact: 0, phase: .move,
                                              position: Point(x: 100, y: 100), pressure: 900))
        expectSequence(late, [
            .gesture(GestureEvent(gesture: "right-click", recognizer: .deepPress, device: pen, contact: 0,
                                  report: GestureReport(state: .failed, time: 0.5, position: Point(x: 100, y: 100)))),
            .decision(.release(ContactKey(device: pen, contact: 0), reason: .timeout, time: 0.5, held: 0.5)),
        ])
    }

    @Test("a lift before anything was decided releases the contact as ended")
    func releasedEnded() {
        let script = GestureScript(Self.rightClick)
        script.pen.down(at: (100, 100), force: 0.1)
        script.clock.advance(by: 0.1)
        script.pen.lift()
        expectSequence(script.engineDecisions, [.release(script.pen.key, reason: .ended, time: 0.1, held: 0.1)])
        expectSequence(script.gestureStates("right-click"), [.failed])
    }

    @Test("a contact taken away before anything was decided is released as ended")
    func cancelledBeforeDecision() {
        let script = GestureScript(Self.rightClick)
        script.pen.down(at: (100, 100), force: 0.1)
        script.pen.cancel()
        expectSequence(script.decisions, [.released(.ended)])
    }

    @Test("once claimed, a contact is never released: failing later changes nothing")
    func claimIsFinal() {
        let script = GestureScript(Self.rightClick, Binding(name: "menu", recognizer: .longPress(.init())))
        script.pen.down(at: (100, 100), force: 0.9)
        script.clock.advance(by: 1)
        script.pen.lift()
        expectSequence(script.decisions, [.claimed(by: "right-click")])
        expectSequence(script.gestureStates("menu"), [.failed])
    }
}
