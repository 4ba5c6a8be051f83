import Testing
@testable import GestureKit

@Suite("Impossible input reaching the engine")
struct EngineBugTests {
    static let rightClick = Binding(name: "right-click", recognizer: .deepPress(.init()), onStart: [.click(button: 3)])

    @Test("events from a device the engine does not know are bugs, and nothing else happens",
          arguments: [ContactPhase.begin, .move, .end, .cancel])
    func unknownDevice(phase: ContactPhase) {
        var engine = GestureEngine(configuration: BindingSet(bindings: [Self.rightClick]))
        let outputs = engine.handle(ContactEvent(time: 0, device: 99, contact: 0, phase: phase,
                                                 position: Point(x: 1, y: 1), pressure: 900))
        #expect(outputs == [.bug("event for unknown device 99")])
        #expect(engine.activeContacts == [])
    }

    @Test("moving or lifting a pen that is not down is a bug, and nothing else happens")
    func contactNotDown() {
        let script = GestureScript(Self.rightClick)
        script.pen.move(to: (100, 100), force: 0.9)
        script.pen.lift()
        script.pen.cancel()
        expectSequence(script.bugs, [
            "move for contact 0 of device 11, which is not down",
            "end for contact 0 of device 11, which is not down",
            "cancel for contact 0 of device 11, which is not down",
        ])
        #expect(script.outputs.count == 3)
    }

    @Test("lifting a pen twice: the second lift is a bug")
    func liftTwice() {
        let script = GestureScript(Self.rightClick)
        script.pen.down(at: (100, 100), force: 0.9)
        script.pen.lift()
        script.pen.lift()
        expectSequence(script.gestureStates("right-click"), [.began, .ended])
        #expect(script.bugs == ["end for contact 0 of device 11, which is not down"])
    }

    @Test("a second down on a contact that is down is a bug: the first is cancelled, the second starts afresh")
    func downTwice() {
        let script = GestureScript(Self.rightClick)
        script.pen.down(at: (100, 100), force: 0.9)
        script.pen.down(at: (200, 100), force: 0.9)
        #expect(script.bugs == ["contact 0 of device 11 began twice; cancelling the first"])
        expectSequence(script.gestureStates("right-click"), [.began, .cancelled, .began])
        expectSequence(script.actions, [.click(button: 3, at: (100, 100)), .click(button: 3, at: (200, 100))])
        #expect(script.engine.activeContacts == [script.pen.key])
    }

    @Test("a second down cancels the first contact where it was, so a held button is let go there")
    func downTwiceCancelsInPlace() {
        let script = GestureScript(Binding(name: "drag", recognizer: .deepPress(.init()),
                                           onStart: [.press(button: 1)], onEnd: [.release(button: 1)]))
        script.pen.down(at: (100, 100), force: 0.9)
        script.clock.advance(by: 0.1)
        script.pen.move(to: (150, 100))
        script.clock.advance(by: 0.1)
        script.pen.down(at: (400, 400), force: 0.1)
        expectSequence(script.actions, [.press(button: 1, at: (100, 100)), .release(button: 1, at: (150, 100))])
        #expect(script.reports(of: "drag").map(\.position) == [Point(x: 100, y: 100), Point(x: 150, y: 100)])
    }

    @Test("a pen hovering without touching is no contact at all")
    func hoverIsIgnored() {
        let script = GestureScript(Self.rightClick)
        script.pen.hover(at: (100, 100))
        script.pen.hover(at: (110, 100))
        #expect(script.outputs == [])
        #expect(script.engine.activeContacts == [])
    }
}
