import Testing
@testable import GestureKit

/// A calibration, as a person makes it: ordinary contacts, then hard presses.
@Suite("Calibration sessions")
struct CalibrationSessionTests {
    static let pen = GestureScript.penDevice
    var time = 0.0

    /// One contact of the pen: down light, up to `peak` (0...1), back, lifted.
    mutating func press(_ session: inout CalibrationSession, peak: Double, contact: Int = 0) -> [CalibrationSession.Event] {
        var events: [CalibrationSession.Event] = []
        for (phase, force) in [(ContactPhase.begin, 0.05), (.move, peak / 2), (.move, peak), (.move, peak / 3), (.end, 0)] {
            time += 0.01
            events += session.handle(ContactEvent(time: time, device: Self.pen.id, contact: contact, phase: phase,
                                                  position: Point(x: 10, y: 10), pressure: force * 1000))
        }
        return events
    }

    @Test("ordinary contacts, then hard presses: each peak in its group, each step ending by itself")
    mutating func twoSteps() throws {
        var session = try #require(CalibrationSession(device: Self.pen, ordinary: 2, hard: 2))
        #expect(press(&session, peak: 0.2) == [.measured(.ordinary, count: 1, target: 2, peak: 0.2)])
        #expect(press(&session, peak: 0.3) == [.measured(.ordinary, count: 2, target: 2, peak: 0.3), .finished(.ordinary)])
        #expect(session.step == .hard)
        _ = press(&session, peak: 0.9)
        #expect(press(&session, peak: 0.8) == [.measured(.hard, count: 2, target: 2, peak: 0.8), .finished(.hard)])
        #expect(session.step == .done)
        #expect(session.ordinaryPeaks == [0.2, 0.3] && session.hardPeaks == [0.9, 0.8])
        #expect(session.suggestion?.threshold == 0.55)
        #expect(press(&session, peak: 0.5).isEmpty, "after the end, contacts change nothing")
    }

    @Test("Enter ends a step early once it has a contact; before that, it says so and goes on")
    mutating func finishEarly() throws {
        var session = try #require(CalibrationSession(device: Self.pen, ordinary: 5, hard: 3))
        #expect(session.finishStep() == [.stillEmpty(.ordinary)])
        _ = press(&session, peak: 0.25)
        #expect(session.finishStep() == [.finished(.ordinary)])
        #expect(session.finishStep() == [.stillEmpty(.hard)])
        _ = press(&session, peak: 0.85)
        #expect(session.finishStep() == [.finished(.hard)])
        #expect(session.step == .done)
    }

    @Test("a contact cancelled by the system counts for nothing; another device's contacts are not measured")
    mutating func cancelledAndOtherDevices() throws {
        var session = try #require(CalibrationSession(device: Self.pen, ordinary: 1, hard: 1))
        _ = session.handle(ContactEvent(time: 0, device: Self.pen.id, contact: 0, phase: .begin, position: Point(x: 0, y: 0), pressure: 900))
        _ = session.handle(ContactEvent(time: 0.1, device: Self.pen.id, contact: 0, phase: .cancel, position: Point(x: 0, y: 0), pressure: 0))
        let touch = GestureScript.touchscreenDevice.id
        _ = session.handle(ContactEvent(time: 0.2, device: touch, contact: 1, phase: .begin, position: Point(x: 0, y: 0), pressure: 300))
        _ = session.handle(ContactEvent(time: 0.3, device: touch, contact: 1, phase: .end, position: Point(x: 0, y: 0), pressure: 0))
        #expect(session.ordinaryPeaks.isEmpty && session.step == .ordinary)
    }

    @Test("a hard step pressed no harder than the ordinary one: the suggestion says the groups overlap")
    mutating func overlap() throws {
        var session = try #require(CalibrationSession(device: Self.pen, ordinary: 2, hard: 1))
        _ = press(&session, peak: 0.4)
        _ = press(&session, peak: 0.5)
        _ = press(&session, peak: 0.45)
        #expect(session.step == .done)
        #expect(session.suggestion?.overlaps == true)
    }

    @Test("a device without pressure cannot be calibrated")
    func noPressure() {
        #expect(CalibrationSession(device: GestureScript.mouseDevice, ordinary: 3, hard: 3) == nil)
    }
}
