import GestureKit

/// Holds back button-1 strokes of pens and mice until the engine decides who owns them, so a
/// deep press never also clicks.
///
/// A synchronous passive grab of button 1 on the root, for every master, freezes the master
/// at the press. The slave's raw events keep coming, so the engine watches the force grow.
/// On release the frozen press is replayed and the application gets the original stroke,
/// pressure included; on claim the stroke leaves the master and the application sees none
/// of it.
///
/// A claimed stroke leaves its master so that the bridge's own clicks and scrolls (XTest,
/// through the same master) reach the application as clean input. The device is grabbed on
/// its own, which detaches it from the master for as long as the grab lasts (its raw events
/// keep coming), and a synthetic button-1 release, which only the bridge's grab of the master
/// receives, lets go of the button the press left down there. Otherwise the master would
/// still hold button 1 when the right-click arrives: the click's press would start the
/// application's implicit grab, which lasts until button 1 goes up, and the pen's lift would
/// reach the application (a context menu takes such a release as a choice). At the lift the
/// device's grab goes and it joins its master again.
///
/// A touch's emulated stroke comes here too when its press reaches the button grab before the
/// touch grab (`takeOver`), and is held and decided as a pen's press (`decideCarried`).
final class PointerOwnership {
    private let connection: XConnection
    private var holds: [Int: PointerHold] = [:]
    /// Per master, the devices whose presses were decided before their grabbed press was read,
    /// oldest first: the server sends grabbed presses in the order they were made, and the
    /// request that lets each go is already on its way, so each needs nothing when it comes.
    /// In a burst of taps, a press waits in the frozen master's queue while the one before it
    /// is decided, so its raw press and release (and its decision) come first.
    private var decidedAhead: [Int: [Int]] = [:]
    private var buttonGrab = PassiveGrab(holding: .press)
    /// Devices whose claimed stroke the bridge grabbed on their own, detached from their master.
    private var detached: Set<Int> = []
    /// Pens, mice and carried touchscreens whose contact began while the grab was held and has
    /// not ended.
    private var contactsDown: Set<Int> = []
    /// Every pen's and mouse's contact that is down, held or not, with its master: a press X
    /// drops while another is down (`contactBegan`).
    private var pointersDown: [Int: Int] = [:]
    /// Devices whose latest contact the bridge does not hold (it began while no grab was held,
    /// or X dropped its press), until their next contact begins: their decisions do nothing,
    /// and a grabbed press of theirs all the same goes straight on.
    private var unheld: Set<Int> = []
    /// When each pointer contact that began under the grab began, until it is decided: for how
    /// long its input was held back.
    private var pressTimes = HoldTimes<Int>()
    /// Touches whose emulated pointer stroke this class holds, by device: their press came to
    /// the button grab, not to the touch grab (`takeOver`).
    private var carriedTouches: [Int: CarriedTouch] = [:]
    /// The serial of the raw press of each contact counted held, until it ends: whether the
    /// server made it after the master's last thaw (`thawedAt`).
    private var pressSerials: [Int: UInt32] = [:]
    /// Per master, the serial of the last request that let its frozen press go: a press the
    /// server made before taking it waited in the master's queue, its grabbed press behind.
    private var thawedAt: [Int: UInt32] = [:]
    /// Per device, the serial of the last request that ended its own grab (a kept stroke's):
    /// a press the server made before taking it went to that grab, not the master's.
    private var letGoAt: [Int: UInt32] = [:]
    /// Sticky Keys' latches as each held press found them, until its contact ends.
    private var pressLatches: [Int: KeyboardLatches] = [:]
    /// Devices let go of from `detached` since `takeRejoined` was last asked.
    private var rejoined: Set<Int> = []
    /// The ungrabs of detached devices (`letGo`), whose refusal means the device was gone
    /// already (unplugged during its kept stroke).
    private var ungrabs = DeviceGoneRequests()
    private let report: (OwnershipReport) -> Void

    init(connection: XConnection, report: @escaping (OwnershipReport) -> Void) {
        self.connection = connection
        self.report = report
    }

    /// Takes or drops the passive button grab: only while an owning binding listens to a pen
    /// or mouse does a press wait for the engine.
    func setButtonGrab(_ wanted: Bool, reason: String) {
        if !wanted, buttonGrab.isHeld { endAll(reason: reason) }
        buttonGrab.set(wanted, on: connection, report: report)
    }

    /// Whether pen and mouse presses wait for the engine.
    var isGrabbing: Bool { buttonGrab.isHeld }

    /// Whether the button grab is wanted and another client holds it.
    var isGrabRefused: Bool { buttonGrab.isRefused }

    /// Whether the bridge holds `master` frozen on an undecided press.
    func isFrozen(master: Int) -> Bool {
        if case .frozen? = holds[master] { return true }
        return false
    }

    /// Whether a press the bridge holds frozen on `master` now, or let go of since the server
    /// made an event of serial `serial`, may hold that event back in the master's queue.
    func mayHoldBack(master: Int, madeAt serial: UInt32) -> Bool {
        isFrozen(master: master) || !afterLastThaw(serial, of: master)
    }

    /// Whether a contact that began under the grab is not over yet: its press may be frozen,
    /// kept, or on its way.
    var isHolding: Bool { !contactsDown.isEmpty || !holds.isEmpty || !detached.isEmpty }

    /// A pointer contact began: its press is frozen at the master by now, or waits in its queue.
    ///
    /// X drops a press of a button its master has down already: while another device of the
    /// master is down (its press held back here, or given to the application), this press
    /// reaches neither the grab nor an application, as it would without the bridge (a mouse
    /// clicked while the pen is down), and nothing of it is held. Nor is a press made before the
    /// grab was in place and read late (`serial`, its raw press's): a device enabled again while
    /// the bridge was not reading, pressed before the bridge took the grab anew.
    /// `otherButtonDown`: the master has a button down besides the tips this class counts (a
    /// side button, the bridge's own `press:`), so the grab, which only a first button
    /// activates, did not take this press either.
    func contactBegan(source: Int, master: Int?, serial: UInt32, otherButtonDown: Bool, at time: Double) {
        unheld.remove(source)
        guard let master else { return }
        let anotherDown = pointersDown.contains { $0.key != source && $0.value == master && !detached.contains($0.key) }
        pointersDown[source] = master
        guard buttonGrab.wasHeld(atSerial: serial), !anotherDown, !otherButtonDown else {
            unheld.insert(source)
            return
        }
        contactsDown.insert(source)
        pressSerials[source] = serial
        pressTimes.began(source, at: time)
    }

    /// The master of a contact this class counts held whose grabbed press should have come
    /// and has not: neither frozen nor decided yet, and made while nothing of the bridge's
    /// froze the master (after its last thaw), so the grabbed press would have come right
    /// behind the raw one. Nil for any other. A few set and dictionary lookups: asked at a
    /// pen's or mouse's every motion.
    func masterAwaitingPress(of source: Int) -> Int? {
        guard contactsDown.contains(source), !detached.contains(source), let master = pointersDown[source],
              decidedAhead[master]?.contains(source) != true else { return nil }
        guard case nil = holds[master], let serial = pressSerials[source] else { return nil }
        // Made while the master was still frozen, its grabbed press waits behind the thaw; made
        // while the device was still grabbed on its own for the stroke before (pressed again
        // within a moment of that lift), it went to that grab.
        guard afterLastThaw(serial, of: master) else { return nil }
        if let letGo = letGoAt[source], Int32(bitPattern: serial &- letGo) < 0 { return nil }
        return master
    }

    /// The grab did not take the contact's press after all: another grab had the master (a
    /// window's, of a finger's emulated press), so the press went there, as it would without
    /// the bridge. It goes on unheld, as one begun beside another button.
    func pressNotTaken(source: Int) {
        contactsDown.remove(source)
        unheld.insert(source)
        pressTimes.forget(source)
        // Should the grab have frozen the master on it after all, unseen, the press goes on: a
        // request that finds nothing frozen does nothing, and a master must never stay frozen
        // on a press this class does not count. Not a thaw of the bridge's (`thawedAt`): it
        // lets go of nothing the server held back for it.
        if let master = pointersDown[source], holds[master] == nil {
            connection.allowEvents(master: master, .replay)
            connection.flush()
        }
    }

    /// The contacts counted held whose grabbed press should have come and has not, with their
    /// masters (`masterAwaitingPress`).
    var awaitingPress: [(source: Int, master: Int)] {
        contactsDown.compactMap { source in masterAwaitingPress(of: source).map { (source, $0) } }
    }

    /// Whether a grabbed press of `source` is its contact's down now: counted held, and made
    /// after the master's last thaw (so no older press of it waited in the master's queue).
    private func pressIsOwn(of source: Int, master: Int) -> Bool {
        guard contactsDown.contains(source), let serial = pressSerials[source] else { return false }
        return afterLastThaw(serial, of: master)
    }

    /// Whether the server made an event of serial `serial` after it took the bridge's last
    /// thaw of `master` (or with none sent): nothing of the bridge's held it back.
    private func afterLastThaw(_ serial: UInt32, of master: Int) -> Bool {
        guard let thawed = thawedAt[master] else { return true }
        return Int32(bitPattern: serial &- thawed) >= 0
    }

    /// A pointer contact ended: a device grabbed for its claimed stroke goes back to its master.
    /// `current` is the master the device list says now; the one the contact began on counts,
    /// since a list read during a kept stroke shows its device floating (grabbed on its own).
    func contactEnded(source: Int, master current: Int?) {
        contactsDown.remove(source)
        pressSerials[source] = nil
        pressLatches[source] = nil
        let master = pointersDown.removeValue(forKey: source) ?? current
        reattach(source)
        defer { forgetTouchWhenDone(source) }
        guard let master else { return }
        switch holds[master] {
        case .claimed(source, let pressSeen)?:
            holds[master] = nil
            // Its grabbed press is still queued behind an earlier one: it needs nothing.
            if !pressSeen { decidedAhead[master, default: []].append(source) }
        case .frozen?, .claimed?, nil:
            break
        }
    }

    /// The devices this class grabbed on their own for a kept stroke and has let go of since
    /// last asked, by a lift or by letting go of everything: each is back on its master, while
    /// a device list read during the stroke shows it floating.
    func takeRejoined() -> Set<Int> {
        defer { rejoined.removeAll() }
        return rejoined
    }

    /// Whether `contact` is a touch whose stroke this class holds (`takeOver`): its decision
    /// and its end come here, not to `TouchOwnership`.
    func carries(_ contact: ContactKey) -> Bool {
        carriedTouches[contact.device]?.touch == contact.contact
    }

    /// Holds a touch's emulated stroke as a pen's press: its press came to the button grab,
    /// which was in front of the touch grab (`TouchOwnership.handOver`). Undecided, the master
    /// stays frozen until the engine decides (`decide`); rejected, the stroke goes on to the
    /// application; claimed, the bridge keeps it (`keepTouchStroke`).
    func takeOver(_ event: GrabbedPointerEvent, _ touch: HandedTouch, at time: Double) {
        let master = event.master
        if let hold = holds[master] {
            report(.bug("a touch's emulated press from device \(event.source) on master \(master) while holding \(hold); replaying it"))
            allow(master, .replay)
            return
        }
        switch (touch.choice, touch.ended) {
        case (.reject?, _), (nil, true):
            allow(master, .replay)
        case (.accept?, _):
            keepTouchStroke(master: master, pressTime: event.serverTime)
        case (nil, false):
            carriedTouches[event.source] = CarriedTouch(touch: touch.touch, pressTime: event.serverTime)
            contactsDown.insert(event.source)
            pointersDown[event.source] = master
            pressTimes.began(event.source, at: time)
            holds[master] = .frozen(source: event.source, since: time)
        }
    }

    /// Decides a carried touch, whose press is the one frozen at the master: replayed to the
    /// application, or kept. Any other hold there means the master is no longer frozen on it.
    private func decideCarried(_ decision: ContactDecision, carried: CarriedTouch, master: Int, at now: Double) {
        let key = decision.key
        guard case .frozen(key.device, _)? = holds[master] else {
            report(.bug("a decision for touch \(key.contact) of device \(key.device), whose press is not the one held on master \(master)"))
            return
        }
        holds[master] = nil
        switch decision {
        case .claim(_, let gesture, _, _):
            keepTouchStroke(master: master, pressTime: carried.pressTime)
            report(.kept(key, .touch, gesture: gesture, held: pressTimes.held(key.device, now: now)))
        case .release(_, let reason, _, _):
            allow(master, .replay)
            report(.replayed(key, .touch, reason: reason, held: pressTimes.held(key.device, now: now)))
        }
        pressTimes.forget(key.device)
    }

    /// Keeps a claimed touch's emulated stroke. Thawing the master accepts the touch for the
    /// bridge (the frozen event is a touch's: dix `AllowSome` ends with `TouchAcceptAndEnd`), so
    /// nothing more of it reaches an application; ending the grab its press activated frees the
    /// master for the bridge's own clicks, which that grab would take until the finger lifts.
    /// The ungrab names the press's time, so a grab a later press activated meanwhile stays.
    private func keepTouchStroke(master: Int, pressTime: UInt) {
        allow(master, .thaw)
        connection.ungrabDevice(master, time: pressTime)
        connection.flush()
    }

    /// Forgets a taken-over touch once it has ended and nothing of its stroke is held.
    private func forgetTouchWhenDone(_ source: Int) {
        guard carriedTouches[source] != nil, !contactsDown.contains(source),
              !holds.values.contains(where: { $0.source == source }) else { return }
        carriedTouches[source] = nil
    }

    func handle(_ event: GrabbedPointerEvent, at time: Double, isContactSource: (Int) -> Bool) {
        // A detached device's own events, through its own grab: the raw events tell the engine.
        guard event.master != event.source else { return }
        // Each device's own first: a press of another device that X merged into a burst leaves
        // an entry whose grabbed press never comes.
        if event.kind == .buttonPress, let index = decidedAhead[event.master]?.firstIndex(of: event.source) {
            guard pressIsOwn(of: event.source, master: event.master) else {
                decidedAhead[event.master]?.remove(at: index)
                // Its release, decided ahead, is carried out now: the replay sent then found
                // nothing frozen when another client's grab held the press back (a keyboard grab
                // freezing the pointer) until after its contact ended. Found in review: the
                // master stayed frozen on it until the device's next press. Only this press's
                // grab is let go: the server ignores the request for a grab a later press
                // activated (a burst's next press, held as any), and one that finds nothing
                // frozen does nothing. Not a thaw of the bridge's (`thawedAt`): a later press
                // read before it must still count as made after the last one.
                connection.allowEvents(master: event.master, .replay, activatedBy: event.serverTime)
                connection.flush()
                return
            }
            // The press of the contact down now, made after the master's last thaw: the
            // entries are left over from presses X merged into the ones before them (a burst),
            // and taking this press for one of them would leave the master frozen.
            decidedAhead[event.master]?.removeAll { $0 == event.source }
        }
        switch (event.kind, holds[event.master]) {
        case (.buttonPress, nil):
            // The bridge's own XTEST clicks and devices nobody follows pass straight on, as do a
            // press that met the grab on the server after the bridge had let go of it and one
            // reckoned dropped (`unheld`).
            guard buttonGrab.isHeld, isContactSource(event.source), !unheld.contains(event.source) else {
                allow(event.master, .replay)
                return
            }
            // A press whose contact the bridge never saw begin (a device new to the server whose
            // raw input was not selected yet, or one let go of with everything) has nothing that
            // would decide it: it goes on, and nothing of it is held.
            guard contactsDown.contains(event.source) else {
                unheld.insert(event.source)
                allow(event.master, .replay)
                return
            }
            holds[event.master] = .frozen(source: event.source, since: time)
            pressLatches[event.source] = event.latches
        case (.buttonPress, .claimed(let source, false)?) where source == event.source:
            // Off the master already, the stroke needs nothing more of it.
            holds[event.master] = detached.contains(source) ? nil : .claimed(source: source, pressSeen: true)
        case (.buttonPress, let hold?):
            report(.bug("a grabbed press from device \(event.source) on master \(event.master) while holding \(hold); replaying it"))
            allow(event.master, .replay)
        case (.buttonRelease, .claimed(let source, _)?) where source == event.source:
            // Released before it left the master: the passive grab ends with it.
            holds[event.master] = nil
        case (.buttonRelease, _), (.motion, _):
            break
        }
    }

    /// Hands a decided pointer contact to its owner.
    func decide(_ decision: ContactDecision, master: Int, at now: Double) {
        if carries(decision.key), let carried = carriedTouches[decision.key.device] {
            decideCarried(decision, carried: carried, master: master, at: now)
            forgetTouchWhenDone(decision.key.device)
            return
        }
        switch holds[master] {
        case .frozen(decision.key.device, _)?, .claimed(decision.key.device, _)?:
            break
        case nil, .frozen?, .claimed?:
            // Never held back (`contactBegan`): begun while no grab was held, or while another
            // device held the master's button down. A request now would act on another press.
            guard !unheld.contains(decision.key.device) else { return }
        }
        switch decision {
        case .claim(let key, let gesture, _, _):
            let pressSeen: Bool
            switch holds[master] {
            case .frozen(key.device, _)?: pressSeen = true
            case nil: pressSeen = false
            case let other?:
                report(.bug("claim for device \(key.device) on master \(master) while holding \(other)"))
                pressSeen = false
            }
            detach(key.device, master: master)
            // Off the master with its press read, the stroke leaves the master free: another
            // device's press there (a mouse beside the pen) is held as any. Still on it (it could
            // not be detached), or its press still to come, the master keeps it.
            holds[master] = pressSeen && detached.contains(key.device) ? nil : .claimed(source: key.device, pressSeen: pressSeen)
            report(.kept(key, .press, gesture: gesture, held: pressTimes.held(key.device, now: now)))
            pressTimes.forget(key.device)
        case .release(let key, let reason, _, _):
            switch holds[master] {
            case .frozen(key.device, _)?: holds[master] = nil
            case .claimed(key.device, _)?:
                report(.bug("release of device \(key.device) after it was claimed; the stroke stays with the bridge"))
                return
            case nil, .claimed?:
                // Its grabbed press is on its way, and the master is not frozen on another one
                // (another device's kept stroke has left it): the request lets go of this one.
                // (Or X dropped it for a button down that `contactBegan` cannot see, the bridge's
                // own click or a touch's: the request then finds nothing frozen.)
                decidedAhead[master, default: []].append(key.device)
            case let other?:
                // Only a press made while no other device was down is held (`contactBegan`), so
                // another's frozen press ahead of it is one already let go: this one is frozen.
                report(.bug("release for device \(key.device) on master \(master) while holding \(other)"))
            }
            allow(master, .replay)
            report(.replayed(key, .press, reason: reason, held: pressTimes.held(key.device, now: now)))
            pressTimes.forget(key.device)
        }
    }

    /// Takes a claimed stroke off its master: the device grabbed on its own (detached while the
    /// grab lasts), the master thawed, and the master's button 1 let go by a release that only
    /// the bridge's grab of the master receives.
    private func detach(_ source: Int, master: Int) {
        let status = connection.grabDevice(source, selecting: XI2EventMask.detachedDevice)
        allow(master, .thaw)
        guard status.succeeded else {
            report(.cannotDetach(device: source, status: status.rawValue))
            return
        }
        detached.insert(source)
        // The master no longer counts the detached device's button: this release lets it go.
        // Sticky Keys' latches, as the press found them, are latched again: this release, or
        // the device's own lift read before the claim, let them go (XKB does at a button's
        // release), and they belong to the click the person meant.
        connection.fakeButtonRelease(1)
        if let latches = pressLatches[source], !latches.isEmpty { connection.latch(latches) }
        connection.flush()
    }

    /// Ends a detached device's own grab, which attaches it to its master again; false when it
    /// was not detached.
    @discardableResult
    private func reattach(_ source: Int) -> Bool {
        guard detached.remove(source) != nil else { return false }
        rejoined.insert(source)
        letGo(source)
        connection.flush()
        return true
    }

    /// Ends a detached device's own grab; a device unplugged during its kept stroke is gone by
    /// the time the request arrives (X releases its buttons, which ends the stroke, then
    /// removes it), and the refusal is taken back (`absorb`).
    func letGo(_ source: Int) {
        letGoAt[source] = UInt32(truncatingIfNeeded: connection.nextRequestSerial)
        ungrabs.noteNext(on: connection)
        connection.ungrabDevice(source)
    }

    /// The errors that are not refusals of `letGo`'s ungrabs.
    func absorb(_ errors: [XProtocolError]) -> [XProtocolError] {
        ungrabs.absorb(errors)
    }

    /// Lets go of everything: frozen presses go to the application, claimed strokes are
    /// ungrabbed. For shutdown, X errors, lost devices and reloads: never a frozen device.
    func endAll(reason: String) {
        decidedAhead.removeAll()
        contactsDown.removeAll()
        pressSerials.removeAll()
        pressLatches.removeAll()
        // A carried touch's end comes to `TouchOwnership` once it is no longer carried: its
        // count among the pointers down goes now, or every pen press would meet it there.
        for source in carriedTouches.keys { pointersDown[source] = nil }
        carriedTouches.removeAll()
        guard !holds.isEmpty || !detached.isEmpty else { return }
        for (master, hold) in holds {
            switch hold {
            case .frozen: allow(master, .replay)
            case .claimed: allow(master, .thaw)
            }
            connection.ungrabDevice(master)
        }
        for source in detached { letGo(source) }
        rejoined.formUnion(detached)
        report(.letGo(.press, count: holds.count, reason: reason))
        holds.removeAll()
        detached.removeAll()
        connection.flush()
    }

    /// Lets go of the stroke of `source` only (its device went away).
    func end(source: Int) {
        for (master, hold) in holds where hold.source == source {
            if case .claimed = hold { allow(master, .thaw) } else { allow(master, .replay) }
            connection.ungrabDevice(master)
            holds[master] = nil
        }
        for master in decidedAhead.keys { decidedAhead[master]?.removeAll { $0 == source } }
        contactsDown.remove(source)
        pressSerials[source] = nil
        pressLatches[source] = nil
        pointersDown[source] = nil
        unheld.remove(source)
        carriedTouches[source] = nil
        reattach(source)
        pressTimes.forget(source)
        connection.flush()
    }

    private func allow(_ master: Int, _ mode: FrozenEventMode) {
        thawedAt[master] = UInt32(truncatingIfNeeded: connection.nextRequestSerial)
        connection.allowEvents(master: master, mode)
        connection.flush()
    }
}

/// A touch whose emulated stroke `PointerOwnership` holds: its server id, and the server time
/// of its press, which activated the button grab.
private struct CarriedTouch: Sendable, Hashable {
    var touch: Int
    var pressTime: UInt
}
