import Testing
@testable import GestureKit

@Suite("Devices going away")
struct DeviceRemovalTests {
    static let drag = Binding(name: "drag", recognizer: .deepPress(.init(threshold: 0.75)),
                              onStart: [.press(button: 1)], onEnd: [.release(button: 1)])

    @Test("unplugging a pen mid deep press cancels it and lets go of the held button")
    func unplugMidGesture() {
        let script = GestureScript(Self.drag)
        script.pen.down(at: (100, 100), force: 0.1)
        script.clock.advance(by: 0.1)
        script.pen.move(to: (110, 100), force: 0.9)
        script.clock.advance(by: 0.1)
        script.pen.unplug()
        expectSequence(script.gestureStates("drag"), [.began, .cancelled])
        expectSequence(script.actions, [.press(button: 1, at: (110, 100)), .release(button: 1, at: (110, 100))])
        #expect(script.reports(of: "drag").last?.time == 0.2)
        #expect(script.engine.activeContacts == [])
        #expect(script.bugs == [])
    }

    @Test("after unplugging, the device's events are bugs, not gestures")
    func eventsAfterUnplug() {
        let script = GestureScript(Self.drag)
        script.pen.unplug()
        script.pen.down(at: (100, 100), force: 0.9)
        #expect(script.bugs == ["event for unknown device \(GestureScript.penDevice.id)"])
        #expect(script.gestureEvents == [])
    }

    @Test("unplugging a touchscreen cancels every finger on it and leaves the pen alone")
    func unplugCancelsEveryFinger() {
        let script = GestureScript(Self.drag)
        script.touchscreen.finger(0).down(at: (100, 100), force: 0.9)
        script.touchscreen.finger(1).down(at: (200, 100), force: 0.9)
        script.pen.down(at: (300, 100), force: 0.9)
        script.forgetOutputs()
        script.touchscreen.unplug()
        expectSequence(script.gestureEvents.map { "\($0.contact) \($0.report.state)" }, ["0 cancelled", "1 cancelled"])
        #expect(script.engine.activeContacts == [script.pen.key])
        script.pen.lift()
        expectSequence(script.gestureStates("drag"), [.cancelled, .cancelled, .ended])
    }

    @Test("the engine says where each contact is down and how hard it presses; an unplugged device's contacts are gone")
    func contactsDown() {
        let script = GestureScript(Self.drag)
        script.pen.down(at: (100, 100), force: 0.2)
        script.touchscreen.finger(3).down(at: (200, 150), force: 0.5)
        script.clock.advance(by: 0.05)
        script.pen.move(to: (104, 101), force: 0.4)
        #expect(script.engine.contactsDown == [
            ActiveContact(key: script.pen.key, position: Point(x: 104, y: 101), force: 0.4),
            ActiveContact(key: script.touchscreen.finger(3).key, position: Point(x: 200, y: 150), force: 0.5),
        ])
        script.touchscreen.unplug()
        #expect(script.engine.contactsDown.map(\.key) == [script.pen.key])
        script.pen.lift()
        #expect(script.engine.contactsDown == [])
    }

    @Test("unplugging a device with an undecided press gives the press to the application and stops its timers")
    func unplugUndecided() {
        let script = GestureScript(Binding(name: "menu", recognizer: .longPress(.init())))
        script.mouse.down(at: (100, 100))
        script.clock.advance(by: 0.2)
        script.mouse.unplug()
        expectSequence(script.decisions, [.released(.ended)])
        #expect(script.engine.nextDeadline == nil)
        script.clock.advance(by: 1)
        expectSequence(script.gestureStates("menu"), [.failed])
    }
}
