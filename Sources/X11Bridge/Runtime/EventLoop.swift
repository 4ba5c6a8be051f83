import GestureKit

/// What a runtime built on `EventLoop` does with the loop's wakeups.
protocol EventLoopClient: AnyObject {
    /// Input that arrived, stamped with the time it was read.
    func handle(_ changes: [InputChange], at time: Double)
    /// Called on every wakeup, before input is read: timers due by `now` fire here.
    func fireTimers(at now: Double)
    var nextDeadline: Double? { get }
    var extraDescriptors: [Int32] { get }
    func descriptorReady(_ descriptor: Int32)
    func signalReceived(_ signal: Int32)
    func xErrors(_ errors: [XProtocolError])
    var isStopping: Bool { get }
}

/// One thread, one poll: the X connection, the signal descriptor, the client's own
/// descriptors and the earliest deadline. Nothing wakes the loop when nothing happens.
final class EventLoop {
    let session: InputSession
    let signals: SignalDescriptor?
    let clock: MonotonicClock

    init(session: InputSession, signals: SignalDescriptor?, clock: MonotonicClock) {
        self.session = session
        self.signals = signals
        self.clock = clock
    }

    func run(_ client: some EventLoopClient) {
        let connection = session.connection
        // A lost server ends the loop too: the connection is dead, and its descriptor would
        // read as ready forever.
        while !client.isStopping, !connection.isLost {
            client.fireTimers(at: clock.now)
            // Xlib may already hold events read during an earlier reply; the socket would not
            // show them, so the queue is drained until XPending reads nothing more. Handlers can
            // cause round trips that queue more events: the loop sees those too.
            while !client.isStopping, var event = connection.nextPendingEvent() {
                let now = clock.now
                let changes = session.handle(&event, at: now)
                if !changes.isEmpty { client.handle(changes, at: now) }
            }
            let errors = connection.takeErrors()
            if !errors.isEmpty {
                client.xErrors(errors)
                connection.flush()
            }
            if client.isStopping || connection.isLost { break }
            // No flush of its own here: the XPending that found the queue empty has just sent
            // every request (it flushes first), and an XFlush would try to read the socket once
            // more, a wasted system call on every wakeup.
            let descriptors = [connection.fileDescriptor] + (signals.map { [$0.descriptor] } ?? []) + client.extraDescriptors
            let timeout = client.nextDeadline.map { $0 - clock.now }
            let ready = Poller.wait(for: descriptors, timeout: timeout)
            if let signals, ready.contains(signals.descriptor) {
                for signal in signals.read() { client.signalReceived(signal) }
            }
            for descriptor in client.extraDescriptors where ready.contains(descriptor) {
                client.descriptorReady(descriptor)
            }
        }
    }

    /// Reads everything the server sent up to now, for a client that is stopping but must not
    /// lose input that had already happened (a recording stopped by Ctrl-C): the round trip
    /// makes sure events generated before the stop are in the queue.
    func drainRemaining(_ client: some EventLoopClient) {
        let connection = session.connection
        connection.sync()
        while var event = connection.nextPendingEvent() {
            let now = clock.now
            let changes = session.handle(&event, at: now)
            if !changes.isEmpty { client.handle(changes, at: now) }
        }
    }
}
