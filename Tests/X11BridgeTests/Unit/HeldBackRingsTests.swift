import GestureKit
import Testing
@testable import X11Bridge

/// A force ring waits until its contact is known to be the bridge's: under a screen locker's
/// grab, or a menu's, nothing is drawn (the end-to-end side: `LockerFeedbackTests`).
@Suite("Rings held back for ownership")
struct HeldBackRingsTests {
    static let finger = ContactKey(device: 12, contact: 3)
    static let pen = ContactKey(device: 9, contact: 0)

    static func ring(_ key: ContactKey, _ fraction: Double) -> Feedback {
        .progress(key, at: Point(x: 100, y: 100), fraction: fraction)
    }

    @Test("a ring of a contact awaiting its touch is kept, the newest only, and shown once the touch is the bridge's")
    func keptUntilOwned() {
        var rings = HeldBackRings()
        var awaiting: Set<ContactKey> = [Self.finger]
        #expect(rings.pass(Self.ring(Self.finger, 0.2), awaitsOwnership: awaiting.contains) == nil)
        #expect(rings.pass(Self.ring(Self.finger, 0.4), awaitsOwnership: awaiting.contains) == nil)
        #expect(rings.settled(Self.finger, awaitsOwnership: awaiting.contains) == nil, "still awaiting")
        awaiting = []
        #expect(rings.settled(Self.finger, awaitsOwnership: awaiting.contains) == Self.ring(Self.finger, 0.4))
        #expect(rings.settled(Self.finger, awaitsOwnership: awaiting.contains) == nil, "shown once")
    }

    @Test("a contact handed to the application, or ended, leaves nothing to show")
    func droppedWithItsContact() {
        var rings = HeldBackRings()
        #expect(rings.pass(Self.ring(Self.finger, 0.3), awaitsOwnership: { _ in true }) == nil)
        #expect(rings.pass(.progressEnded(Self.finger), awaitsOwnership: { _ in true }) == .progressEnded(Self.finger))
        #expect(rings.settled(Self.finger, awaitsOwnership: { _ in false }) == nil)
        #expect(rings.pass(Self.ring(Self.finger, 0.3), awaitsOwnership: { _ in true }) == nil)
        rings.drop(Self.finger)
        #expect(rings.settled(Self.finger, awaitsOwnership: { _ in false }) == nil)
    }

    @Test("a ring drawn for a contact already owned supersedes the one kept; other contacts and pulses pass")
    func othersPass() {
        var rings = HeldBackRings()
        let awaiting: Set<ContactKey> = [Self.finger]
        #expect(rings.pass(Self.ring(Self.finger, 0.3), awaitsOwnership: awaiting.contains) == nil)
        #expect(rings.pass(Self.ring(Self.pen, 0.5), awaitsOwnership: awaiting.contains) == Self.ring(Self.pen, 0.5))
        let pulse = Feedback.pulse(at: Point(x: 5, y: 5), time: 1)
        #expect(rings.pass(pulse, awaitsOwnership: awaiting.contains) == pulse)
        #expect(rings.pass(Self.ring(Self.finger, 0.6), awaitsOwnership: { _ in false }) == Self.ring(Self.finger, 0.6))
        #expect(rings.settled(Self.finger, awaitsOwnership: { _ in false }) == nil, "superseded")
    }
}
