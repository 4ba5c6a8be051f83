import Synchronization

/// A failure that repeats (every save to a read-only or full home) told once, and again only
/// once it changed or something worked in between: a day's log is not one warning per tap.
final class FailureTold: Sendable {
    private let last = Mutex<String?>(nil)

    /// Whether `message` is to be told: it differs from the failure last told.
    func shouldTell(_ message: String) -> Bool {
        last.withLock { last in
            defer { last = message }
            return last != message
        }
    }

    /// It worked: the next failure is told.
    func worked() {
        last.withLock { $0 = nil }
    }
}
