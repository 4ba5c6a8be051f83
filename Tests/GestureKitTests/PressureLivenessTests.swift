import GestureKit
import Testing

/// The fallback when a driver does not say what a device is: a declared pressure axis that
/// never moves over two contacts in a row, or reads one other value over three, counts as
/// none, until it moves.
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

    /// One contact of `samples` samples, every one at `pressure`, end included.
    static func steadyContact(_ liveness: inout PressureLiveness, pressure: Double, samples: Int = 4) -> [PressureLiveness.Change] {
        ([Self.event(.begin, pressure: pressure)] + Array(repeating: Self.event(.move, pressure: pressure), count: samples - 2)
         + [Self.event(.end, pressure: pressure)]).compactMap { liveness.observe($0) { range } }
    }

    /// Found in review of odd devices: a touchscreen whose pressure always read its maximum
    /// right-clicked every tap, learning or not; one whose pressure read one value halfway never
    /// right-clicked, its long press (for screens without pressure) kept from it.
    @Test("three contacts whose every sample reads one value above the minimum: dead; another value: alive again")
    func stuckAboveTheMinimum() {
        for stuck in [2047.0, 300] {
            var liveness = PressureLiveness()
            #expect(Self.steadyContact(&liveness, pressure: stuck).isEmpty)
            #expect(Self.steadyContact(&liveness, pressure: stuck).isEmpty, "two are not enough above the minimum")
            #expect(Self.steadyContact(&liveness, pressure: stuck) == [.dead(9)])
            #expect(Self.steadyContact(&liveness, pressure: stuck).isEmpty, "said once")
            // A pen's hover reads its minimum: no pressure, nothing brought back (found in review
            // of the day's change).
            #expect(liveness.observe(Self.event(.hover, pressure: 0)) { Self.range } == nil)
            #expect(liveness.observe(Self.event(.begin, pressure: stuck - 1)) { Self.range } == .alive(9))
        }
    }

    @Test("quick taps reading one value count for nothing; three steady contacts at different values, or one that varied, are a pressure")
    func realPressureKept() {
        var liveness = PressureLiveness()
        // A quick tap (down, up) of a real screen can read one value.
        for _ in 0..<10 { #expect(Self.steadyContact(&liveness, pressure: 300, samples: 2).isEmpty) }
        #expect(Self.steadyContact(&liveness, pressure: 300).isEmpty)
        #expect(Self.steadyContact(&liveness, pressure: 300).isEmpty)
        #expect(Self.steadyContact(&liveness, pressure: 310).isEmpty, "another value starts the run again")
        #expect(Self.steadyContact(&liveness, pressure: 310).isEmpty)
        let varied = [Self.event(.begin, pressure: 310), Self.event(.move, pressure: 320), Self.event(.move, pressure: 310),
                      Self.event(.end, pressure: 310)]
        #expect(varied.compactMap { liveness.observe($0) { Self.range } }.isEmpty)
        #expect(Self.steadyContact(&liveness, pressure: 310).isEmpty, "the run started again")
        #expect(Self.steadyContact(&liveness, pressure: 310).isEmpty)
        #expect(Self.steadyContact(&liveness, pressure: 310) == [.dead(9)])
    }

    /// A touchscreen (device 7, 0..255) under the built-in bindings, and what `contacts` of it
    /// at one pressure bring: the right-clicks of each, in order. Each contact lasts `duration`
    /// with a sample every 10 ms, its finger still.
    static func rightClicks(pressure: Double, contacts: Int, duration: Double) -> [Int] {
        let screen = InputDevice(id: 7, name: "Touchscreen", kind: .touch, pressure: PressureRange(min: 0, max: 255))
        var engine = GestureEngine(configuration: ConfigLoader.builtInDefault, devices: [screen])
        return (0..<contacts).map { index in
            var outputs: [EngineOutput] = []
            let start = Double(index) * 3, at = Point(x: 400 + Double(index % 5) * 50, y: 300)
            let samples = Int(duration / 0.01)
            for sample in 0...samples {
                let phase: ContactPhase = sample == 0 ? .begin : sample == samples ? .end : .move
                engine.advance(to: start + Double(sample) * 0.01, into: &outputs)
                _ = engine.handle(ContactEvent(time: start + Double(sample) * 0.01, device: 7, contact: index, phase: phase,
                                               position: at, pressure: pressure), into: &outputs)
            }
            engine.advance(to: start + 2.5, into: &outputs)
            return outputs.filter { if case .action(let fired) = $0, fired.action == .click(button: 3) { true } else { false } }.count
        }
    }

    @Test("a touchscreen whose pressure always reads its maximum: taps stop right-clicking after three")
    func saturatedScreenTaps() {
        let clicks = Self.rightClicks(pressure: 255, contacts: 12, duration: 0.08)
        #expect(clicks.dropFirst(PressureLiveness.stuckContacts).allSatisfy { $0 == 0 }, "\(clicks)")
    }

    @Test("a touchscreen whose pressure always reads one value halfway: a long press right-clicks from the fourth")
    func stuckScreenLongPress() {
        let clicks = Self.rightClicks(pressure: 128, contacts: 6, duration: 1)
        #expect(clicks.dropFirst(PressureLiveness.stuckContacts).allSatisfy { $0 == 1 }, "\(clicks)")
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
