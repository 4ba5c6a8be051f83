import GestureKit

/// What a runtime built on `EventLoop` does with the loop's wakeups.
protocol EventLoopClient: AnyObject {
    /// Input that arrived, stamped with the time it was read.
    func handle(_ changes: [InputChange], at time: Double)
    /// Called on every wakeup, after the input waiting then is read: timers due by `now` fire
    /// here. True when one of them decided something by the input's time (the engine's: a
    /// decision timeout, a long press), so input read afterwards is dated no earlier than
    /// `now`; false for timers that only draw, type or look (a ring's frame), which must not
    /// date the input still to be read.
    func fireTimers(at now: Double) -> Bool
    var nextDeadline: Double? { get }
    /// The next timer that decides by the input's time (a contact's decision timeout, a long
    /// press): before it fires the loop makes a round trip, which brings in input the server
    /// stamped but had not sent yet (its main thread busy with another client's request while
    /// its input thread read a lift). Nil when none is set.
    var nextDecidingDeadline: Double? { get }
    /// Appends the client's own descriptors that stay open while the loop runs (the config
    /// file watch), or close for good.
    func addLastingDescriptors(to list: inout [Int32])
    /// Appends the client's descriptors that come and go (running commands' pipes).
    func addPassingDescriptors(to list: inout [Int32])
    func descriptorReady(_ descriptor: Int32)
    func signalReceived(_ signal: ReceivedSignal)
    func xErrors(_ errors: [XProtocolError])
    var isStopping: Bool { get }
    /// Whether the loop may leave the X connection unread for a while after a read, while
    /// input comes fast; nil to wake for every event. A client says so only while reading late
    /// changes nothing a person notices (a pen hovering at 1000 Hz), and such input then comes
    /// in batches instead of one wakeup per sample.
    var inputLull: InputLull? { get }
}

/// How late fast input may be read, as an `EventLoopClient` says it.
enum InputLull {
    /// Reading late changes nothing until a contact begins or ends: a hovering pen, whose
    /// samples say where the next press will be and that a touch then is a palm. Read every `InputBatching.longLull` when the
    /// loop has a `ContactBell` to wake it for the press, every `InputBatching.frameLull` without.
    case untilContactChanges
    /// Reading late delays what the input does by as much: a knob's steps. Read once a display
    /// frame (`InputBatching.frameLull`), as toolkits hand motion to applications.
    case onceAFrame
}

/// The X side of the loop: the session in a live run, a scripted one in tests.
protocol EventLoopInput: AnyObject {
    associatedtype Bell: EventLoopBell
    /// The descriptor that becomes readable when the server sends something.
    var fileDescriptor: Int32 { get }
    var isLost: Bool { get }
    /// What the next event means, read at `now`; nil when no event is queued (and, when
    /// `reading`, none came on one read of the socket).
    func nextChanges(reading: Bool, readAt now: Double) -> [InputChange]?
    /// Time has been handled up to `now` (timers fired): input read later is dated no earlier.
    func timePassed(_ now: Double)
    /// Whether events wait in memory that the descriptor no longer shows.
    var hasPendingInput: Bool { get }
    /// Whether the socket holds bytes not read yet (after a read that brought no whole event).
    var socketHasBytes: Bool { get }
    /// Requests sent with no round trip since.
    var unconfirmedRequests: UInt { get }
    func sync()
    func flush()
    func takeErrors() -> [XProtocolError]
    /// Rings when a contact begins or ends (`ContactBell`); nil without one.
    var contactBell: Bell? { get }
}

/// Rings when a contact begins or ends, while a lull leaves the X connection unread.
protocol EventLoopBell: AnyObject {
    var fileDescriptor: Int32 { get }
    /// Whether a contact began or ended since the last look; nil when the bell broke.
    func take() -> Bool?
}

/// Waits for descriptors or a timeout: `Poller` in a live run, a virtual clock in tests.
protocol EventLoopWaiter: AnyObject {
    /// Descriptors open for as long as the loop runs, or closed for good; set before each wait.
    var lasting: [Int32] { get set }
    /// Descriptors that may close and reopen under the same number; set before each wait.
    var passing: [Int32] { get set }
    func wait(timeout: Double?)
    func isReady(_ descriptor: Int32) -> Bool
}

/// The loop's sense of time.
protocol EventLoopClock {
    var now: Double { get }
}

extension MonotonicClock: EventLoopClock {}
extension Poller: EventLoopWaiter {}
extension ContactBell: EventLoopBell {}

extension InputListener: EventLoopInput {
    var fileDescriptor: Int32 { connection.fileDescriptor }
    var isLost: Bool { connection.isLost }
    var hasPendingInput: Bool { connection.hasPendingInput }
    var socketHasBytes: Bool { connection.socketHasBytes }
    var unconfirmedRequests: UInt { connection.unconfirmedRequests }
    func sync() { connection.sync() }
    func flush() { connection.flush() }
    func takeErrors() -> [XProtocolError] { connection.takeErrors() }

    func nextChanges(reading: Bool, readAt now: Double) -> [InputChange]? {
        guard let event = connection.nextEvent(reading: reading) else { return nil }
        return handle(event, readAt: now)
    }
}

/// One thread, one poll: the X connection, the signal descriptor, the contact bell, the
/// client's own descriptors and the earliest deadline. Nothing wakes the loop when nothing
/// happens.
///
/// The mechanism only: when fast input may be read late is `InputBatching`'s to say, and what
/// input and timers do is the client's.
final class EventLoop<Input: EventLoopInput, Waiter: EventLoopWaiter, Clock: EventLoopClock> {
    let input: Input
    let signals: SignalDescriptor?
    let clock: Clock
    /// Requests the loop lets go unconfirmed before a round trip of its own, which frees Xlib's
    /// records of them. The bridge's grabs confirm everything before them anyway, so this is a
    /// limit for long runs of clicks, scroll steps or overlay frames with no press: a knob
    /// turned for minutes, whose batches of input leave no wakeup without input: one round
    /// trip every 512 requests.
    static var unconfirmedRequestLimit: UInt { 512 }
    /// How late a timer may fire before the loop counts itself kept from running (a wait ends
    /// within a millisecond or two of its deadline).
    static var overdue: Double { 0.02 }
    /// Kept from wakeup to wakeup, so waiting allocates nothing.
    private let poller: Waiter

    init(input: Input, signals: SignalDescriptor?, clock: Clock, waiter: Waiter) {
        self.input = input
        self.signals = signals
        self.clock = clock
        self.poller = waiter
    }

    func run(_ client: some EventLoopClient) {
        StartupStack.release()
        let connection = input
        // The first pass reads whatever is there; after that the socket is read when poll says
        // it holds something, after a lull (below), and when a timer is due.
        var readable = true
        var lulled = false
        var batching = InputBatching()
        // The session's contact bell, if it has one, wakes the loop when a contact begins or
        // ends while a lull leaves the X connection unread (without it, lulls last a frame).
        // Dropped if its connection breaks (the server went away, which the X connection
        // notices on its own).
        var bell = input.contactBell
        // Whether this pass has made its round trip for a timer about to judge, or long overdue.
        var caughtUp = false
        // A lost server ends the loop too: the connection is dead, and its descriptor would
        // read as ready forever.
        while !client.isStopping, !connection.isLost {
            // The socket is read when poll says it holds something, after a lull, and whenever
            // a timer is due: a timer must not judge a contact before the input that came
            // before it is read. A wait cut short by a signal (SIGCONT after a stop, a resume)
            // shows nothing ready, though input may have piled up meanwhile.
            let socketRead = readable || lulled || Self.due(client, at: clock.now)
            // Then what XCB already holds (events read while Xlib waited for a reply are queued
            // without the socket showing them, and handlers can cause such round trips). While a
            // timer is due, the socket again each time that runs dry while it holds bytes: a
            // backlog larger than one read (XCB takes 4 KB at a time), as a stalled or stopped
            // bridge finds, is read whole before the timer fires. (With none due, the rest waits
            // for the next pass, as poll shows it: no system call more per wakeup.)
            var reading = socketRead
            var handled = 0
            // Whether the read about to be made is of bytes known to be there.
            var bytesThere = readable
            // A read of bytes that brought no event: an error of a request without a reply,
            // which XCB keeps for Xlib until a round trip collects it (or half an event).
            var readNoEvent = false
            while !client.isStopping {
                let now = clock.now
                guard let changes = connection.nextChanges(reading: reading, readAt: now) else {
                    if reading && bytesThere { readNoEvent = true }
                    guard !connection.isLost, Self.due(client, at: clock.now), connection.socketHasBytes else { break }
                    reading = true
                    bytesThere = true
                    continue
                }
                reading = false
                bytesThere = false
                handled += 1
                if !changes.isEmpty { client.handle(changes, at: now) }
            }
            // A timer about to judge a contact, or any timer long overdue: the server may hold
            // input the socket does not show yet. Its main thread busy with another client's
            // request (a slow drawing, pages read back from swap), its input thread went on
            // stamping the contact's input, a lift among it, which the server sends only once
            // free; or the loop was kept from running, and the server holds more of the backlog
            // than the socket did (it writes the rest once the socket has drained). One round
            // trip, whose reply comes behind all it had, brings that in before the timer judges
            // a contact whose lift is in it. (Found in review of a machine short of memory: a
            // tap made while the server was busy for 0.6 s became a long press's right-click.)
            let judging = client.nextDecidingDeadline.map { $0 <= clock.now } ?? false
            let overdue = client.nextDeadline.map { clock.now - $0 > Self.overdue } ?? false
            if !caughtUp, judging || overdue {
                caughtUp = true
                connection.sync()
                if connection.hasPendingInput {
                    readable = false
                    continue
                }
            }
            caughtUp = false
            // Timers after input: input read now happened before now, and a busy machine may
            // have kept the loop from reading it in time. A hold judged before the samples
            // waiting in the socket are read would take a pressing hand for a still one. (The
            // engine fires timers due before an input's time as it handles it.)
            let now = clock.now
            // Only timers that decide by the input's time move it on: a pass that fired none (a
            // wait a signal cut short), or only a ring's frame, must not date the input still to
            // be read at this moment (under load, a deep press's samples read after each frame
            // would climb in steps, and its hold take it for levelled off).
            if client.fireTimers(at: now) { connection.timePassed(now) }
            // The socket had something and it was no event: an error of a request without a
            // reply. Collected now, the bridge lets go of what it holds at once instead of at
            // the next reply. (Or half an event, or a broken connection, where the round trip
            // costs nothing that matters.) A long run of requests with no round trip is
            // confirmed the same way, which keeps Xlib's record of them from growing.
            if readNoEvent || connection.unconfirmedRequests > Self.unconfirmedRequestLimit {
                connection.sync()
            }
            let errors = connection.takeErrors()
            if !errors.isEmpty { client.xErrors(errors) }
            if client.isStopping || connection.isLost { break }
            connection.flush()
            // Writing can read too: XCB takes in whatever arrived while it waited to write, and
            // the socket no longer shows it, so poll would sleep on an event already here.
            if connection.hasPendingInput {
                readable = false
                continue
            }
            // A lull leaves the X connection out of the wait for a few milliseconds, while input
            // comes fast and the client says reading late changes nothing (`InputBatching`).
            let lull = batching.lull(afterReading: handled, lulled: lulled, at: clock.now, hasBell: bell != nil,
                                     client: client.inputLull)
            poller.lasting.removeAll(keepingCapacity: true)
            if lull == nil { poller.lasting.append(connection.fileDescriptor) }
            if let signals { poller.lasting.append(signals.descriptor) }
            if let bell { poller.lasting.append(bell.fileDescriptor) }
            let ownFirst = poller.lasting.count
            client.addLastingDescriptors(to: &poller.lasting)
            poller.passing.removeAll(keepingCapacity: true)
            client.addPassingDescriptors(to: &poller.passing)
            var timeout = client.nextDeadline.map { $0 - clock.now }
            if let lull { timeout = min(timeout ?? lull, lull) }
            poller.wait(timeout: timeout)
            // A contact began or ended: a lull ends now, and the input is read as it comes until
            // it is fast again. Should the press not be in the socket yet (the server wrote to
            // the bell first), the connection is in the next wait.
            if let ringing = bell, poller.isReady(ringing.fileDescriptor) {
                switch ringing.take() {
                case true?: batching.contactChanged()
                case false?: break
                case nil: bell = nil
                }
            }
            lulled = lull != nil && batching.lullRanOut(at: clock.now)
            readable = lull == nil && poller.isReady(connection.fileDescriptor)
            if let signals, poller.isReady(signals.descriptor) {
                for signal in signals.read() { client.signalReceived(signal) }
            }
            for descriptor in poller.lasting.dropFirst(ownFirst) where poller.isReady(descriptor) {
                client.descriptorReady(descriptor)
            }
            for descriptor in poller.passing where poller.isReady(descriptor) {
                client.descriptorReady(descriptor)
            }
        }
    }

    /// Whether a timer of the client's is due by `now`.
    private static func due(_ client: some EventLoopClient, at now: Double) -> Bool {
        client.nextDeadline.map { $0 <= now } == true
    }

    /// Reads everything the server sent up to now, for a client that is stopping but must not
    /// lose input that had already happened (a recording stopped by Ctrl-C): the round trip
    /// makes sure events generated before the stop are in the queue.
    func drainRemaining(_ client: some EventLoopClient) {
        input.sync()
        while true {
            let now = clock.now
            guard let changes = input.nextChanges(reading: false, readAt: now) else { break }
            if !changes.isEmpty { client.handle(changes, at: now) }
        }
    }
}

extension EventLoop where Input == InputListener, Waiter == Poller, Clock == MonotonicClock {
    /// The live loop: the session's X connection, epoll, the monotonic clock.
    convenience init(session: InputListener, signals: SignalDescriptor?, clock: MonotonicClock) {
        self.init(input: session, signals: signals, clock: clock, waiter: Poller())
    }
}
