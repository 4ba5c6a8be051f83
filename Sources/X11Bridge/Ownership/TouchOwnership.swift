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
/// The engine decides from the touch's raw events, which the server sends as the touchscreen
/// makes them; the touch reaches the master, where the grab holds it, only later (behind a press
/// the bridge holds frozen on the same master, say). A choice goes out only once the grabbed
/// begin has been read: before it the master has no such touch, and the server answers BadValue
/// ("a BadValue error occurs if the touch ID is invalid", XI2proto, XIAllowEvents).
///
/// Even then the request can find the master without touches: "the master device changes its
/// classes to reflect the SD's capabilities" (XI2proto, event processing for attached slave
/// devices) whenever another of its devices, a pen, sends an event, and the server refuses a
/// touch choice on a device without a touch class. Nothing in the protocol lets a client
/// avoid that race, so the refusal is expected: the choice is sent again with the next event
/// the master brings of a touch (a touch's event switches the master back), and reported as
/// a `touchChoiceDeferred` value rather than as an X error.
final class TouchOwnership {
    private struct TouchKey: Hashable, CustomStringConvertible {
        var device: Int
        var touch: Int

        var description: String { "device \(device) touch \(touch)" }

        var contact: ContactKey { ContactKey(device: device, contact: touch) }
    }

    /// Where a chosen touch's choice stands with the server.
    private enum Delivery: Hashable {
        /// The grabbed begin has not been read: the master has no such touch yet.
        case awaitingBegin
        /// Sent; no error has come back for it.
        case sent
        /// Refused because the master had no touch class at that moment: goes again with the
        /// master's next touch event. `attempts`: how often it was refused.
        case awaitingTouchClass(attempts: Int)
        /// A rejection held back while the bridge holds the master frozen on a pen's press
        /// (`PointerOwnership`): sent once it lets go of it (`sendHeldBack`). Sent at once, it
        /// waits in the frozen master's queue, and the thaw for a claimed pen stroke plays the
        /// touch's emulated press to the grab the pen's press activated, the bridge's: the
        /// finger's tap never reached the application.
        case behindFrozenPointer
    }

    private struct SentChoice {
        var serial: UInt
        var key: TouchKey
        var choice: TouchOwnershipChoice
        var master: Int
    }

    private enum Hold: CustomStringConvertible {
        /// The engine follows it and has not decided. `begun`: the grabbed begin has been read.
        case undecided(master: Int, begun: Bool)
        case chosen(TouchOwnershipChoice, master: Int, Delivery)

        var description: String {
            switch self {
            case .undecided: "undecided"
            case .chosen(.accept, _, _): "accepted"
            case .chosen(.reject, _, _): "rejected"
            }
        }
    }

    /// How often a refused choice is sent again before the touch is given up (reported gone).
    private static let maximumAttempts = 8
    /// How many sent choices are remembered for matching an error to its touch; errors come
    /// back within a round trip, long before this many more choices are sent.
    private static let rememberedRequests = 64

    private let connection: XConnection
    private var touchGrab = PassiveGrab(holding: .touch)
    private var holds: [TouchKey: Hold] = [:]
    /// Touches whose contact ended before the server was done with them: forgotten once it is.
    private var ended: Set<TouchKey> = []
    /// Contacts still undecided whose touch another grab took (`expireBefore`): the bridge
    /// gives them up in the engine too (`takeTakenElsewhere`), or a long press held still on
    /// an open menu would fire into it.
    private var takenElsewhere: [ContactKey] = []
    /// Each choice recently sent, oldest first, by the serial of its request: an error names it.
    private var requests: [SentChoice] = []
    private var beginTimes = HoldTimes<TouchKey>()
    /// The touch grab is to be renewed once no touch is in flight (`renewGrab`).
    private var renewalPending = false
    private let report: (OwnershipReport) -> Void

    /// Whether the bridge holds a master frozen on a pointer press (`PointerOwnership`).
    private let isPointerFrozen: (Int) -> Bool
    /// Whether a pointer press the bridge held may still hold back what the server made on a
    /// master at a serial: frozen now, or let go of since (`PointerOwnership.mayHoldBack`).
    private let pointerMayHoldBack: (_ master: Int, _ serial: UInt32) -> Bool
    /// The serial of each touch's raw begin, while it is held.
    private var beginSerials: [TouchKey: UInt32] = [:]

    init(connection: XConnection, isPointerFrozen: @escaping (Int) -> Bool = { _ in false },
         pointerMayHoldBack: @escaping (_ master: Int, _ serial: UInt32) -> Bool = { _, _ in false },
         report: @escaping (OwnershipReport) -> Void) {
        self.connection = connection
        self.isPointerFrozen = isPointerFrozen
        self.pointerMayHoldBack = pointerMayHoldBack
        self.report = report
    }

    /// Sends the rejections held back behind a frozen master (`Delivery.behindFrozenPointer`)
    /// whose master the bridge no longer holds frozen; called after every batch of input and timers.
    func sendHeldBack() {
        for (key, hold) in holds {
            guard case .chosen(.reject, let master, .behindFrozenPointer) = hold, !isPointerFrozen(master) else { continue }
            send(key)
        }
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

    /// Whether the touch grab is wanted and another client holds it.
    var isGrabRefused: Bool { touchGrab.isRefused }

    /// Whether a touch that began under the grab is not done with yet.
    var isHolding: Bool { !holds.isEmpty }

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

    /// Whether a touch of `master` was handed to the applications and is still down. A window
    /// that takes no touch then holds the master's first button through it (pointer emulation),
    /// and X ends that window's grab at the release of any button pressed meanwhile (a grab
    /// ends when the master's count of buttons down, which leaves emulated touches out, falls
    /// to none: `exevents.c`), so the touch's own release never reaches it. A contact begun
    /// beside it goes to the applications too (`Bridge`).
    func applicationHoldsTouch(onMaster master: Int) -> Bool {
        holds.contains { key, hold in
            if case .chosen(.reject, master, _) = hold { return !ended.contains(key) }
            return false
        }
    }

    /// A touch contact began: the engine follows it, and the bridge owns it until it decides.
    func contactBegan(device: Int, touch: Int, master: Int, serial: UInt32, at time: Double) {
        guard touchGrab.isHeld else { return }
        let key = TouchKey(device: device, touch: touch)
        holds[key] = .undecided(master: master, begun: false)
        beginSerials[key] = serial
        beginTimes.began(key, at: time)
        ended.remove(key)
    }

    /// The master of a touch that still waits for a grabbed begin that would have come by now
    /// (its begin made while nothing of the bridge's held its master back, and no renewal of
    /// the grab waiting, which sends a touch to the button grab: `handOver`); nil for any other.
    /// The server sends the grabbed begin right behind the raw one, so by the touch's next event
    /// it has come, or another grab took the touch (an open menu's active grab of the pointer
    /// becomes its owner), or another client's freeze of the master holds it back (`Bridge`
    /// tells which).
    func masterAwaitingBegin(device: Int, touch: Int) -> Int? {
        let key = TouchKey(device: device, touch: touch)
        guard !renewalPending, let serial = beginSerials[key] else { return nil }
        switch holds[key] {
        case .undecided(let master, false)?, .chosen(_, let master, .awaitingBegin)?:
            return pointerMayHoldBack(master, serial) ? nil : master
        case .undecided?, .chosen?, nil:
            return nil
        }
    }

    /// The touches whose grabbed begin should have come and has not, with their masters.
    var awaitingBegin: [(contact: ContactKey, master: Int)] {
        holds.keys.compactMap { key in masterAwaitingBegin(device: key.device, touch: key.touch).map { (key.contact, $0) } }
    }

    /// Forgets a touch another grab took (`masterAwaitingBegin`): the server never gave it to the
    /// bridge, so no choice of the bridge's can go out for it.
    func notTaken(device: Int, touch: Int) {
        forget(TouchKey(device: device, touch: touch))
    }

    /// A touch contact ended or was cancelled. The server is done with it once a rejection has
    /// gone out, or with an accepted touch's grabbed end.
    func contactEnded(device: Int, touch: Int) {
        let key = TouchKey(device: device, touch: touch)
        switch holds[key] {
        case .chosen(.reject, _, .sent)?, nil:
            forget(key)
        case .undecided?, .chosen?:
            ended.insert(key)
        }
    }

    /// Hands a decided touch contact to its owner, or to the applications.
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
        guard case .undecided(let master, let begun)? = holds[key] else {
            if let hold = holds[key] { report(.bug("a second decision for \(key), already \(hold)")) }
            return
        }
        switch decision {
        case .claim(_, let gesture, _, _):
            report(.kept(contact, .touch, gesture: gesture, held: beginTimes.held(key, now: now)))
        case .release(_, let reason, _, _):
            report(.replayed(contact, .touch, reason: reason, held: beginTimes.held(key, now: now)))
        }
        holds[key] = .chosen(choice, master: master, .awaitingBegin)
        if begun { send(key) }
    }

    /// A touch reached the bridge through its grab: the master holds it now.
    func handle(_ event: GrabbedTouchEvent) {
        let key = TouchKey(device: event.source, touch: event.touchID)
        // Any touch event on the master brings its touch class back: refused choices go again.
        resendRefused(on: event.master)
        switch (event.kind, holds[key]) {
        case (.begin, nil):
            // No contact of the engine's: a device the bridge does not follow, or a touch that
            // began before the grab. It goes straight on to the applications.
            connection.allowTouchEvents(master: event.master, touch: event.touchID, .reject)
            connection.flush()
        case (.begin, .undecided(let master, false)?):
            expireBefore(key)
            holds[key] = .undecided(master: master, begun: true)
        case (.begin, .chosen(_, _, .awaitingBegin)?):
            expireBefore(key)
            send(key)
        case (.end, .chosen(.accept, _, .sent)?) where ended.contains(key):
            // The server ends an accepted touch with its owner.
            forget(key)
        case (.begin, _), (.update, _), (.end, _):
            break
        }
    }

    /// Gives up `contact`, a touch whose emulated pointer press reached the button grab
    /// instead of the touch grab, and says what was decided for it so far; nil for a touch that
    /// does not wait for its grabbed begin (one the touch grab rejected comes to the button grab
    /// too, as the server hands its emulated events on). A touch reaches the button grab first
    /// only while the touch grab waits to be renewed behind a button grab just taken
    /// (`renewGrab`): the grabbed begin this class waits for will never come, and the touch's
    /// stroke is the button grab's to hold (`PointerOwnership.takeOver`). Older touches of the
    /// device that still wait went elsewhere (`expireBefore`).
    func handOver(_ contact: ContactKey) -> HandedTouch? {
        let key = TouchKey(device: contact.device, touch: contact.contact)
        let choice: TouchOwnershipChoice?
        switch holds[key] {
        case .undecided(_, begun: false)?: choice = nil
        case .chosen(let chosen, _, .awaitingBegin)?: choice = chosen
        case .undecided?, .chosen?, nil: return nil
        }
        let handed = HandedTouch(touch: key.touch, choice: choice, ended: ended.contains(key))
        expireBefore(key)
        forget(key)
        return handed
    }

    /// Forgets the touches of `key`'s device that began before it and still wait for their
    /// grabbed begin: the server has handled `key`'s begin, so theirs came first, and it went to
    /// neither of the bridge's grabs (a touch that began while an application's implicit grab
    /// held the master, behind a pen's press just replayed to it). Kept, they would hold the
    /// touch grab's renewal off for good.
    private func expireBefore(_ key: TouchKey) {
        guard let start = beginTimes.start(of: key) else { return }
        for (other, hold) in holds where other.device == key.device && other != key {
            switch hold {
            case .undecided(_, begun: false), .chosen(_, _, .awaitingBegin):
                guard let began = beginTimes.start(of: other), began < start else { continue }
                report(.touchGone(other.contact))
                if case .undecided = hold, !ended.contains(other) { takenElsewhere.append(other.contact) }
                forget(other)
            case .undecided, .chosen:
                continue
            }
        }
    }

    /// The undecided contacts found taken by another grab since the last call.
    func takeTakenElsewhere() -> [ContactKey] {
        defer { takenElsewhere.removeAll() }
        return takenElsewhere
    }

    /// Takes the X errors that answer the bridge's own touch choices, and returns the rest. A
    /// choice refused for want of a touch class goes again with the master's next touch event;
    /// one whose touch the server no longer has is forgotten.
    func absorb(_ errors: [XProtocolError]) -> [XProtocolError] {
        errors.filter { error in
            guard let index = requests.firstIndex(where: { $0.serial == error.serial }) else { return true }
            let sent = requests.remove(at: index)
            let key = sent.key
            // A rejection of an ended touch was forgotten when it went out: it is still pending.
            let wasForgotten = holds[key] == nil
            switch error.errorCode {
            case XProtocolError.badValue, XProtocolError.badAccess:
                report(.touchGone(key.contact))
                forget(key)
            default:
                let attempts = refusals(of: key) + 1
                guard attempts < Self.maximumAttempts else {
                    report(.touchGone(key.contact))
                    forget(key)
                    return false
                }
                holds[key] = .chosen(sent.choice, master: sent.master, .awaitingTouchClass(attempts: attempts))
                if wasForgotten { ended.insert(key) }
                report(.touchChoiceDeferred(key.contact))
            }
            return false
        }
    }

    /// Lets go of every touch still waiting: undecided touches go to the applications. For
    /// shutdown, X errors and reloads: never a touch left owned by nobody.
    func endAll(reason: String) {
        let waiting = holds.compactMap { key, hold -> (TouchKey, Int)? in
            switch hold {
            case .undecided(let master, true), .chosen(.reject, let master, .awaitingTouchClass),
                 .chosen(.reject, let master, .behindFrozenPointer):
                return (key, master)
            case .undecided, .chosen:
                return nil
            }
        }
        for (key, master) in waiting {
            connection.allowTouchEvents(master: master, touch: key.touch, .reject)
        }
        connection.flush()
        if !waiting.isEmpty {
            report(.letGo(.touch, count: waiting.count, reason: reason))
        }
        holds.removeAll()
        ended.removeAll()
        requests.removeAll()
        beginSerials.removeAll()
        beginTimes.forgetAll()
        renewIfIdle()
    }

    /// Forgets the touches of a device that went away: the server ends them itself.
    func end(device: Int) {
        for key in holds.keys where key.device == device { forget(key) }
    }

    private func refusals(of key: TouchKey) -> Int {
        if case .chosen(_, _, .awaitingTouchClass(let attempts))? = holds[key] { return attempts }
        return 0
    }

    private func resendRefused(on master: Int) {
        for (key, hold) in holds {
            if case .chosen(_, master, .awaitingTouchClass)? = Optional(hold) { send(key) }
        }
    }

    /// Sends a chosen touch's choice; a rejection whose contact has ended is then done with.
    private func send(_ key: TouchKey) {
        guard case .chosen(let choice, let master, _)? = holds[key] else { return }
        if choice == .reject, isPointerFrozen(master) {
            holds[key] = .chosen(choice, master: master, .behindFrozenPointer)
            return
        }
        requests.append(SentChoice(serial: connection.nextRequestSerial, key: key, choice: choice, master: master))
        if requests.count > Self.rememberedRequests { requests.removeFirst(requests.count - Self.rememberedRequests) }
        connection.allowTouchEvents(master: master, touch: key.touch, choice)
        connection.flush()
        holds[key] = .chosen(choice, master: master, .sent)
        if choice == .reject, ended.contains(key) { forget(key) }
    }

    private func forget(_ key: TouchKey) {
        holds[key] = nil
        beginSerials[key] = nil
        ended.remove(key)
        beginTimes.forget(key)
        renewIfIdle()
    }
}

/// A touch whose emulated pointer press came to the button grab (`TouchOwnership.handOver`).
struct HandedTouch: Sendable, Hashable {
    /// The server's touch id.
    var touch: Int
    /// Accept or reject when the engine has decided already; nil while it has not.
    var choice: TouchOwnershipChoice?
    /// Whether the touch has ended already.
    var ended: Bool
}
