import Dispatch
import GestureKit
import Logging
import Synchronization
import X11Bridge

/// Keeps the devices' learned state on disk, away from the event loop. A save is a dozen file
/// system calls and an `fsync`, which a busy disk or a network home folder can stretch to
/// seconds, and while the loop waits the bridge reads nothing: every press it holds back stays
/// frozen. So the loop hands each change over and goes on, and one writer thread saves, the
/// newest state of each device only: a slow disk leaves at most one write waiting per device.
/// The thread is a `SerialWorker`'s, shared with the other writes to disk: at the process limit,
/// where none can be made, the state waits, and is written as the bridge stops.
final class LearnedStateSaver: Sendable {
    private let store: LearnedStateStore
    /// Files another version wrote, and files that could not be read (said once at start),
    /// never written over.
    private let leftAlone: Set<String>
    private let logger: Logger
    /// The newest state of each device not written yet.
    private let pending = Mutex<[String: HandLearner]>([:])
    private let worker: SerialWorker
    private let failure = FailureTold()

    /// Where the state is kept.
    var directory: String { store.directory }

    /// How long the bridge waits, stopping, for what is still to be written.
    static let finishTimeout = 10.0

    init(store: LearnedStateStore, leftAlone: Set<String>, worker: SerialWorker, logger: Logger) {
        self.store = store
        self.worker = worker
        self.leftAlone = leftAlone
        self.logger = logger
    }

    /// Writes `learner` as `device`'s state soon, on the writer thread; returns at once.
    func save(_ learner: HandLearner, of device: String) {
        let wasIdle = pending.withLock { pending in
            defer { pending[device] = learner }
            return pending.isEmpty
        }
        // A writer busy with the others takes this one too; a writer with no thread yet is
        // tried again.
        if wasIdle || worker.threadFailure != nil {
            worker.submit { self.writePending() }
        }
    }

    /// Waits until everything handed over is written, or `timeout` seconds pass; false then
    /// (a disk that does not answer: the state not written is lost, as the log says). With no
    /// thread to write it (the process limit), it is written here.
    func finish(timeout: Double = finishTimeout) -> Bool {
        worker.finish(by: .now() + timeout)
    }

    private func writePending() {
        while let (device, learner) = pending.withLock({ $0.popFirst() }) {
            write(learner, of: device)
        }
    }

    /// One device's state, under its key (`LearningKey`); a state that cannot be written is
    /// logged, never fatal.
    private func write(_ learner: HandLearner, of device: String) {
        guard !leftAlone.contains(store.directory + "/" + store.fileName(for: device)) else { return }
        // `calibrate --write` marked it calibrated while this bridge ran: that wins.
        if !learner.calibrated, store.keptLearner(for: device)?.calibrated == true { return }
        do {
            try store.save(device: device, learner: learner)
            failure.worked()
        } catch {
            // A read-only or full home fails every save, each device's: said once, by its
            // reason, until one works (found in review: a pen and a touchscreen alternating
            // said it at every change).
            if failure.shouldTell(error.reason) {
                logger.warning("cannot keep what was learned: \(error.description); said again only once a save worked meanwhile")
            }
        }
    }
}
