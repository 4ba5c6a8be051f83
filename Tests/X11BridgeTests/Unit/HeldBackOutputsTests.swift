@testable import GestureKit
import Testing
@testable import X11Bridge

/// What a contact says waits until its press or touch is known to be the bridge's: under a
/// screen locker's grab, or a menu's, nothing is run or drawn (the end-to-end side:
/// `OpenMenuTests.lockerGrabFirmLanding`, `LockerFeedbackTests`).
@Suite("Outputs held back for ownership")
struct HeldBackOutputsTests {
    static let finger = ContactKey(device: 12, contact: 3)
    static let pen = ContactKey(device: 9, contact: 0)
    static let spot = Point(x: 100, y: 100)

    static func ring(_ key: ContactKey, _ fraction: Double) -> EngineOutput {
        .feedback(.progress(key, at: spot, fraction: fraction))
    }

    static func rightClick(_ key: ContactKey) -> EngineOutput {
        .action(ActionEvent(time: 1, gesture: "press", contact: key, action: .click(button: 3), position: spot))
    }

    static func claim(_ key: ContactKey) -> EngineOutput {
        .decision(.claim(key, gesture: "press", time: 1, held: 0))
    }

    static func report(_ key: ContactKey) -> EngineOutput {
        .gesture(GestureEvent(gesture: "press", recognizer: .deepPress, device: key.device, contact: key.contact,
                              report: GestureReport(state: .recognized, time: 1, position: spot, force: 0.9)))
    }

    @Test("a contact landing past its threshold: its claim, click and pulse wait in order, and go out once its press is the bridge's")
    func claimKeptUntilOwned() {
        var held = HeldBackOutputs()
        var awaiting: Set<ContactKey> = [Self.pen]
        let pulse = EngineOutput.feedback(.pulse(Self.pen, at: Self.spot, time: 1))
        #expect(held.pass(Self.report(Self.pen), awaitsOwnership: awaiting.contains) == [Self.report(Self.pen)],
                "a report acts on nothing")
        for output in [pulse, Self.rightClick(Self.pen), Self.claim(Self.pen)] {
            #expect(held.pass(output, awaitsOwnership: awaiting.contains).isEmpty)
        }
        #expect(held.pass(Self.report(Self.pen), awaitsOwnership: awaiting.contains).isEmpty, "behind what is held")
        #expect(held.settled(Self.pen, awaitsOwnership: awaiting.contains).isEmpty, "still awaiting")
        awaiting = []
        #expect(held.settled(Self.pen, awaitsOwnership: awaiting.contains)
                == [pulse, Self.rightClick(Self.pen), Self.claim(Self.pen), Self.report(Self.pen)])
        #expect(held.settled(Self.pen, awaitsOwnership: awaiting.contains).isEmpty, "once")
    }

    @Test("a ring of a contact awaiting its touch is kept, the newest only, and shown once the touch is the bridge's")
    func ringKeptUntilOwned() {
        var held = HeldBackOutputs()
        var awaiting: Set<ContactKey> = [Self.finger]
        #expect(held.pass(Self.ring(Self.finger, 0.2), awaitsOwnership: awaiting.contains).isEmpty)
        #expect(held.pass(Self.ring(Self.finger, 0.4), awaitsOwnership: awaiting.contains).isEmpty)
        awaiting = []
        #expect(held.settled(Self.finger, awaitsOwnership: awaiting.contains) == [Self.ring(Self.finger, 0.4)])
    }

    @Test("a contact whose press went to another grab, or whose device went, leaves nothing to act on")
    func droppedWithItsContact() {
        var held = HeldBackOutputs()
        #expect(held.pass(Self.rightClick(Self.finger), awaitsOwnership: { _ in true }).isEmpty)
        #expect(held.holds(Self.finger))
        held.drop(Self.finger)
        #expect(!held.holds(Self.finger))
        #expect(held.settled(Self.finger, awaitsOwnership: { _ in false }).isEmpty)
        #expect(held.pass(Self.claim(Self.pen), awaitsOwnership: { _ in true }).isEmpty)
        #expect(held.pass(Self.ring(Self.finger, 0.3), awaitsOwnership: { _ in true }).isEmpty)
        held.drop(device: Self.pen.device)
        #expect(held.settledAll(awaitsOwnership: { _ in false }) == [Self.ring(Self.finger, 0.3)], "the other device's stays")
    }

    @Test("a contact another grab took: what it held and what it says until it ends acts on nothing; its release and reports pass")
    func takenUntilItEnds() {
        var held = HeldBackOutputs()
        #expect(held.pass(Self.claim(Self.pen), awaitsOwnership: { _ in true }).isEmpty)
        #expect(held.takenByAnotherGrab(Self.pen).isEmpty, "the claim held acts: dropped")
        let release = EngineOutput.decision(.release(Self.pen, reason: .anotherButton, time: 1, held: 0.1))
        for output in [Self.rightClick(Self.pen), Self.ring(Self.pen, 0.5), EngineOutput.feedback(.pulse(Self.pen, at: Self.spot, time: 1))] {
            #expect(held.pass(output, awaitsOwnership: { _ in false }).isEmpty, "\(output)")
        }
        #expect(held.pass(release, awaitsOwnership: { _ in false }) == [release])
        #expect(held.pass(Self.report(Self.pen), awaitsOwnership: { _ in false }) == [Self.report(Self.pen)])
        #expect(held.settled(Self.pen, awaitsOwnership: { _ in false }).isEmpty, "the claim went with it")
        held.drop(Self.pen)
        #expect(held.pass(Self.rightClick(Self.pen), awaitsOwnership: { _ in false }) == [Self.rightClick(Self.pen)],
                "the device's next contact is its own")
    }

    /// Found in review: a release held behind a ring was dropped with it, and neither the
    /// ownership classes nor `--json` heard of it.
    @Test("a contact another grab took, or handed over by a button of its own: its held release and reports come back to act on, its ring and claim do not")
    func releaseHeldBehindARing() {
        var held = HeldBackOutputs()
        let release = EngineOutput.decision(.release(Self.pen, reason: .levelledOff, time: 1, held: 0.1))
        for output in [Self.ring(Self.pen, 0.4), Self.report(Self.pen), release] {
            #expect(held.pass(output, awaitsOwnership: { _ in true }).isEmpty)
        }
        #expect(held.takenByAnotherGrab(Self.pen) == [Self.report(Self.pen), release])
        let fingerRelease = EngineOutput.decision(.release(Self.finger, reason: .anotherButton, time: 1, held: 0.1))
        #expect(held.pass(Self.claim(Self.finger), awaitsOwnership: { _ in true }).isEmpty)
        #expect(held.pass(fingerRelease, awaitsOwnership: { _ in true }).isEmpty, "behind the claim")
        #expect(held.forgetHeld(Self.finger) == [fingerRelease])
        #expect(!held.holds(Self.finger))
        #expect(held.pass(Self.rightClick(Self.finger), awaitsOwnership: { _ in false }) == [Self.rightClick(Self.finger)],
                "a contact handed over by a button of its own is not another grab's")
    }

    @Test("a contact already owned, another contact and a release pass at once; a contact no longer awaiting brings what it held first")
    func othersPass() {
        var held = HeldBackOutputs()
        let awaiting: Set<ContactKey> = [Self.finger]
        let release = EngineOutput.decision(.release(Self.finger, reason: .levelledOff, time: 1, held: 0.1))
        #expect(held.pass(release, awaitsOwnership: awaiting.contains) == [release], "a release acts on the application's behalf")
        #expect(held.pass(Self.rightClick(Self.pen), awaitsOwnership: awaiting.contains) == [Self.rightClick(Self.pen)])
        #expect(held.pass(Self.ring(Self.finger, 0.3), awaitsOwnership: awaiting.contains).isEmpty)
        #expect(held.pass(Self.ring(Self.finger, 0.6), awaitsOwnership: { _ in false })
                == [Self.ring(Self.finger, 0.3), Self.ring(Self.finger, 0.6)])
        #expect(!held.holds(Self.finger))
        #expect(held.pass(.bug("x"), awaitsOwnership: { _ in true }) == [.bug("x")])
    }
}
