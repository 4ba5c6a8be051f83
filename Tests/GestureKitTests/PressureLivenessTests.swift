import GestureKit
import Testing

/// The fallback when a driver does not say what a device is: a declared pressure axis that
/// never moves over two contacts in a row counts as none, until it moves.
@Suite("A pressure axis that never moves")
struct PressureLivenessTests {
    static let range = PressureRange(min: 0, max: 2047)

    static func event(_ phase: ContactPhase, contact: Int = 0, pressure: Double?) -> ContactEvent {
        ContactEvent(time: 0, device: 9, contact: contact, phase: phase, position: Point(x: 1, y: 1), pressure: pressure)
    }

    /// One contact: down, a move, up, all at `pressure`; the changes it brought.
    static func contact(_ liveness: inout PressureLiveness, pressure: Double, contact: Int = 0) -> [PressureLiveness.Change] {
        [Self.event(.begin, contact: contact, pressure: pressure), Self.event(.move, contact: contact, pressure: pressure),
         Self.event(.end, contact: contact, pressure: 0)].compactMap { liveness.observe($0) { range } }
    }

    @Test("two still contacts in a row: dead; the first that presses: alive again")
    func deadThenAlive() {
        var liveness = PressureLiveness()
        #expect(Self.contact(&liveness, pressure: 0).isEmpty)
        #expect(Self.contact(&liveness, pressure: 0) == [.dead(9)])
        #expect(Self.contact(&liveness, pressure: 0).isEmpty, "said once")
        #expect(Self.contact(&liveness, pressure: 300) == [.alive(9)])
        #expect(Self.contact(&liveness, pressure: 0).isEmpty, "one still contact after a press is not enough")
    }

    @Test("a contact that pressed at any sample, or a cancelled one, breaks the run; a device without pressure is not watched")
    func runsAndExceptions() {
        var liveness = PressureLiveness()
        #expect(Self.contact(&liveness, pressure: 0).isEmpty)
        let pressedOnce = [Self.event(.begin, pressure: 0), Self.event(.move, pressure: 40), Self.event(.end, pressure: 0)]
        #expect(pressedOnce.compactMap { liveness.observe($0) { Self.range } }.isEmpty)
        #expect(Self.contact(&liveness, pressure: 0).isEmpty, "the run started again")
        #expect(liveness.observe(Self.event(.begin, contact: 1, pressure: 0)) { Self.range } == nil)
        #expect(liveness.observe(Self.event(.cancel, contact: 1, pressure: 0)) { Self.range } == nil)
        #expect(Self.contact(&liveness, pressure: 0) == [.dead(9)], "a cancelled contact counts for nothing")
        var withoutPressure = PressureLiveness()
        #expect(withoutPressure.observe(Self.event(.begin, pressure: nil)) { nil } == nil)
    }

    @Test("a device plugged out and in again starts afresh")
    func removal() {
        var liveness = PressureLiveness()
        _ = Self.contact(&liveness, pressure: 0)
        liveness.remove(9)
        #expect(Self.contact(&liveness, pressure: 0).isEmpty)
    }

    /// The engine with the built-in bindings and one pen, `Pen` (device 9), found dead by two
    /// still contacts.
    static func engineWithDeadPen() -> GestureEngine {
        let pen = InputDevice(id: 9, name: "Pen", kind: .pen, pressure: range)
        var engine = GestureEngine(configuration: ConfigLoader.builtInDefault, devices: [pen])
        var outputs: [EngineOutput] = []
        let changes = (0..<2).flatMap { index in
            [ContactPhase.begin, .move, .end].compactMap { phase in
                engine.handle(ContactEvent(time: Double(index) + (phase == .begin ? 0 : 0.6), device: 9, contact: 0, phase: phase,
                                           position: Point(x: 1, y: 1), pressure: 0), into: &outputs)
            }
        }
        #expect(changes == [.dead(9)])
        #expect(engine.devices[9]?.pressure == nil)
        return engine
    }

    @Test("the engine uses a dead device without pressure: a hover's pressure does not bring it back, a mapping elsewhere keeps it, a device declared anew is watched afresh")
    func inTheEngine() {
        var engine = Self.engineWithDeadPen()
        var outputs: [EngineOutput] = []
        // libinput's hover can carry the pressure the tip last had.
        let hover = ContactEvent(time: 3, device: 9, contact: 0, phase: .hover, position: Point(x: 1, y: 1), pressure: 800)
        #expect(engine.handle(hover, into: &outputs) == nil)
        #expect(engine.devices[9]?.pressure == nil)
        var mapped = InputDevice(id: 9, name: "Pen", kind: .pen, pressure: Self.range)
        mapped.mappedArea = MappedArea(x: 0, y: 0, width: 0.5, height: 1)
        engine.addDevice(mapped)
        #expect(engine.devices[9]?.pressure == nil, "mapped elsewhere, still found dead")
        #expect(engine.devices[9]?.mappedArea == mapped.mappedArea)
        let declaredAnew = InputDevice(id: 9, name: "Pen", kind: .pen, pressure: PressureRange(min: 0, max: 65535))
        engine.addDevice(declaredAnew)
        #expect(engine.devices[9]?.pressure == declaredAnew.pressure, "a new declaration is taken at its word")
        var again = Self.engineWithDeadPen()
        again.removeDevice(9, at: 3, into: &outputs)
        again.addDevice(InputDevice(id: 9, name: "Pen", kind: .pen, pressure: Self.range))
        #expect(again.devices[9]?.pressure == Self.range, "plugged out and in again")
        var switched = Self.engineWithDeadPen()
        switched.removeDevice(9, disabled: true, at: 3, into: &outputs)
        #expect(switched.devices[9] == nil)
        switched.addDevice(InputDevice(id: 9, name: "Pen", kind: .pen, pressure: Self.range))
        #expect(switched.devices[9]?.pressure == nil, "disabled and enabled again (a VT switch), still found dead")
        switched.removeDevice(9, disabled: true, at: 4, into: &outputs)
        switched.addDevice(declaredAnew)
        #expect(switched.devices[9]?.pressure == declaredAnew.pressure, "enabled declared anew: taken at its word")
    }
}
