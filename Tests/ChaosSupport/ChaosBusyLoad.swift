import Foundation
import Synchronization

/// A busy loop on every core, as a compile or a browser makes one, until `stop` (or until the
/// load is let go of). Threads of the chaos player's own, so they end with it whatever ends it.
final class ChaosBusyLoad: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let running = Atomic<Int>(0)

    init() {
        let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
        for _ in 0..<cores {
            running.add(1, ordering: .relaxed)
            let thread = Thread { [self] in
                var spins: UInt64 = 0
                while !stopped.load(ordering: .relaxed) { spins &+= 1 }
                running.subtract(1, ordering: .relaxed)
            }
            thread.start()
        }
    }

    /// Ends the loops and waits until every thread has seen it.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        while running.load(ordering: .relaxed) > 0 { usleep(1_000) }
    }

    deinit { stopped.store(true, ordering: .relaxed) }
}
