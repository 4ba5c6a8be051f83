import Dispatch
import Glibc
import Synchronization

/// Runs the work handed to it, in order, on one thread of its own, so that whoever hands it over
/// never waits: the bridge's event loop hands over writes to a reader who may not read and saves
/// to a disk that may be slow.
///
/// Not a `DispatchQueue`. Found in review of a machine short of resources: libdispatch makes a
/// queue's thread when work arrives, and at the user's process limit (`ulimit -u`, a session's
/// `TasksMax`) it retries the creation for ever inside `async`, so the event loop froze there:
/// every press it held back stayed held, and SIGTERM went unread. Here the thread is made at the
/// first hand-over and kept; when it cannot be made, the work waits, handing over returns at once,
/// and the thread is tried again at the next hand-over (`threadFailure` says why meanwhile).
///
/// The thread starts with every signal blocked: a signal the event loop reads is never delivered
/// to it, whenever the worker is made.
public final class SerialWorker: Sendable {
    public typealias Work = @Sendable () -> Void

    /// What the worker and its thread share; the thread holds it, not the worker, so that a
    /// worker let go of ends its thread once the work handed over is done.
    private final class Core: Sendable {
        struct State {
            var waiting: [Work] = []
            var thread = ThreadState.missing(failure: nil)
            /// The worker was let go of: the thread ends once nothing waits.
            var closed = false
        }

        enum ThreadState {
            /// Not made yet, or its making failed with this `errno` (nil: never tried).
            case missing(failure: Int32?)
            case starting
            case running
        }

        let state = Mutex(State())
        /// Signalled once per hand-over and once at the close.
        let wake = DispatchSemaphore(value: 0)

        func run() {
            while true {
                wake.wait()
                let next: Work?? = state.withLock { state in
                    if !state.waiting.isEmpty { return .some(state.waiting.removeFirst()) }
                    return state.closed ? .none : .some(nil)
                }
                switch next {
                case .none: return
                case .some(nil): continue
                case .some(let work?): work()
                }
            }
        }
    }

    private let core = Core()

    public init() {}

    deinit {
        core.state.withLock { $0.closed = true }
        core.wake.signal()
    }

    /// Hands `work` over to run after what was handed over before; returns at once. False when
    /// the worker has no thread (`threadFailure`): the work waits for one.
    @discardableResult
    public func submit(_ work: @escaping Work) -> Bool {
        let makesThread = core.state.withLock { state -> Bool in
            state.waiting.append(work)
            guard case .missing = state.thread else { return false }
            state.thread = .starting
            return true
        }
        core.wake.signal()
        guard makesThread else { return core.state.withLock { if case .missing = $0.thread { false } else { true } } }
        return startThread()
    }

    /// Why the worker's thread could not be made (an `errno`: EAGAIN at the process limit);
    /// nil while it runs or before it was needed.
    public var threadFailure: Int32? {
        core.state.withLock { state in
            if case .missing(let failure) = state.thread { failure } else { nil }
        }
    }

    /// Waits until the work handed over so far has run, or until `deadline`: false then. When
    /// no thread can be made to run it (the process limit), the work waiting runs here, on the
    /// caller's thread, as the process ends: the lines and saves are not lost.
    @discardableResult
    public func finish(by deadline: DispatchTime) -> Bool {
        let done = DispatchSemaphore(value: 0)
        guard submit({ done.signal() }) else { return runWaitingHere() }
        // Another caller's making of the thread may fail meanwhile: then there is none to wait
        // for (found in review of the day's change: the stop waited out its whole deadline).
        while true {
            let step = min(deadline, .now() + .milliseconds(50))
            if done.wait(timeout: step) == .success { return true }
            if threadFailure != nil { return runWaitingHere() }
            if DispatchTime.now() >= deadline { return false }
        }
    }

    /// Runs the work that waits for a thread that cannot be made on the caller's thread.
    private func runWaitingHere() -> Bool {
        let waiting = core.state.withLock { state -> [Work] in
            guard case .missing = state.thread else { return [] }
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for work in waiting { work() }
        return true
    }

    private func startThread() -> Bool {
        // Every signal blocked around the creation: the new thread starts with the mask.
        var all = sigset_t(), previous = sigset_t()
        sigfillset(&all)
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let context = Unmanaged.passRetained(core).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Core>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Core>.fromOpaque(context).release()
            core.state.withLock { $0.thread = .missing(failure: result) }
            return false
        }
        pthread_detach(thread)
        core.state.withLock { $0.thread = .running }
        return true
    }
}
