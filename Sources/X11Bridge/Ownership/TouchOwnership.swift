import GestureKit

/// Owns touches before the applications do, through XI 2.2 touch ownership.
///
/// A passive touch grab on the root makes the bridge the first listener of every touch, so no
/// application sees a touch (nor the pointer events the server emulates from it) until the
/// bridge lets go. When a gesture claims the contact the bridge accepts the touch, and the
/// other listeners never see it begin; when the engine releases the contact the bridge rejects
/// the touch, and the server replays the whole sequence to the next listener, emulated pointer
/// events included.
///
/// Touch ids name the touch in both the raw events the engine follows and the grabbed events,
/// so a decision can be sent as soon as the engine makes it, even before the grabbed begin is
/// read. A grabbed touch the engine does not follow is rejected at once.
final class TouchOwnership {
    private struct TouchKey: Hashable, CustomStringConvertible {
        var device: Int
        var touch: Int

        var description: String { "device \(device) touch \(touch)" }
    }

    private enum Hold: CustomStringConvertible {
        /// The engine follows it and has not decided.
        case undecided(master: Int)
        case accepted
        case rejected

        var description: String {
            switch self {
            case .undecided: "undecided"
            case .accepted: "accepted"
            case .rejected: "rejected"
            }
        }
    }

    private let connection: XConnection
    private var touchGrab = PassiveGrab(holding: .touch)
    private var holds: [TouchKey: Hold] = [:]
    /// Touches whose contact ended before their decision came: forgotten once it does.
    private var ended: Set<TouchKey> = []
    private var beginTimes = HoldTimes<TouchKey>()
    /// The touch grab is to be renewed once no touch is in flight (`renewGrab`).
    private var renewalPending = false
    private let report: (OwnershipReport) -> Void

    init(connection: XConnection, report: @escaping (OwnershipReport) -> Void) {
        self.connection = connection
        self.report = report
    }

    /// Takes or drops the passive touch grab: only while an owning binding listens to a
    /// touchscreen does a touch wait for the engine.
    func setTouchGrab(_ wanted: Bool, reason: String) {
        if !wanted, touchGrab.isHeld { endAll(reason: reason) }
        touchGrab.set(wanted, on: connection, report: report)
        if !touchGrab.isHeld { renewalPending = false }
    }

    /// Whether touches wait for the engine.
    var isGrabbing: Bool { touchGrab.isHeld }

    /// Takes the touch grab again so that it comes before the button grab (`GrabReconciler`):
    /// at once when no touch is in flight, else when the last one is over. A touch in flight
    /// keeps the listeners it began with, and its grab must outlive it: the server's record of
    /// the touch refers to the grab that took it.
    func renewGrab() {
        renewalPending = true
        renewIfIdle()
    }

    private func renewIfIdle() {
        guard renewalPending, holds.isEmpty else { return }
        renewalPending = false
        touchGrab.renew(on: connection, report: report)
    }

    /// A touch contact began: the engine follows it, and the bridge owns it until it decides.
    func contactBegan(device: Int, touch: Int, master: Int, at time: Double) {
        guard touchGrab.isHeld else { return }
        let key = TouchKey(device: device, touch: touch)
        holds[key] = .undecided(master: master)
        beginTimes.began(key, at: time)
        ended.remove(key)
    }

    /// A touch contact ended or was cancelled. Its decision follows at once if it has not come.
    func contactEnded(device: Int, touch: Int) {
        let key = TouchKey(device: device, touch: touch)
        switch holds[key] {
        case .undecided?:
            ended.insert(key)
        case .accepted?:
            // The server ends an accepted touch with its owner: forgotten at that grabbed end.
            ended.insert(key)
        case .rejected?, nil:
            forget(key)
        }
    }

    /// Hands a decided touch contact to its owner.
    func decide(_ decision: ContactDecision, at now: Double) {
        let contact: ContactKey
        let choice: TouchOwnershipChoice
        switch decision {
        case .claim(let key, _, _, _):
            contact = key
            choice = .accept
        case .release(let key, _, _, _):
            contact = key
            choice = .reject
        }
        let key = TouchKey(device: contact.device, touch: contact.contact)
        guard case .undecided(let master)? = holds[key] else {
            if let hold = holds[key] { report(.bug("a second decision for \(key), already \(hold)")) }
            return
        }
        allow(key, master: master, choice)
        let hadEnded = ended.contains(key)
        switch decision {
        case .claim(_, let gesture, _, _):
            holds[key] = .accepted
            report(.kept(contact, .touch, gesture: gesture, held: beginTimes.held(key, now: now)))
        case .release(_, let reason, _, _):
            holds[key] = .rejected
            report(.replayed(contact, .touch, reason: reason, held: beginTimes.held(key, now: now)))
            if hadEnded { forget(key) }
        }
    }

    /// A touch reached the bridge through its grab.
    func handle(_ event: GrabbedTouchEvent) {
        let key = TouchKey(device: event.source, touch: event.touchID)
        if event.kind == .end, case .accepted? = holds[key], ended.contains(key) {
            forget(key)
            return
        }
        guard event.kind == .begin, holds[key] == nil else { return }
        // No contact of the engine's: a device the bridge does not follow, or a touch that
        // began before the grab. It goes straight on to the applications.
        connection.allowTouchEvents(master: event.master, touch: event.touchID, .reject)
        connection.flush()
    }

    /// Lets go of every touch still waiting: undecided touches go to the applications. For
    /// shutdown, X errors and reloads: never a touch left owned by nobody.
    func endAll(reason: String) {
        let waiting = holds.compactMap { key, hold -> (TouchKey, Int)? in
            if case .undecided(let master) = hold { return (key, master) }
            return nil
        }
        for (key, master) in waiting { allow(key, master: master, .reject) }
        if !waiting.isEmpty {
            report(.letGo(.touch, count: waiting.count, reason: reason))
        }
        holds.removeAll()
        ended.removeAll()
        beginTimes.forgetAll()
        renewIfIdle()
    }

    /// Forgets the touches of a device that went away: the server ends them itself.
    func end(device: Int) {
        for key in holds.keys where key.device == device { forget(key) }
    }

    private func forget(_ key: TouchKey) {
        holds[key] = nil
        ended.remove(key)
        beginTimes.forget(key)
        renewIfIdle()
    }

    private func allow(_ key: TouchKey, master: Int, _ choice: TouchOwnershipChoice) {
        connection.allowTouchEvents(master: master, touch: key.touch, choice)
        connection.flush()
    }
}
