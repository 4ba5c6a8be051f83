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
}
