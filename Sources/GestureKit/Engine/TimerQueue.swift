/// The engine's timers, ordered by deadline. The engine never reads a clock: whoever drives
/// it (the live event loop, a trace replay, a test's virtual clock) asks for `nextDeadline`
/// and calls `advance(to:)`, so every time-based decision is exact and repeatable.
public struct TimerQueue<Tag: Hashable & Sendable>: Sendable {
    private var entries: [(deadline: Double, tag: Tag)] = []

    public init() {}

    public var nextDeadline: Double? { entries.first?.deadline }
    public var isEmpty: Bool { entries.isEmpty }

    /// Sets (or moves, or with nil removes) the timer for `tag`.
    public mutating func set(_ tag: Tag, deadline: Double?) {
        entries.removeAll { $0.tag == tag }
        guard let deadline else { return }
        let index = entries.firstIndex { $0.deadline > deadline } ?? entries.endIndex
        entries.insert((deadline, tag), at: index)
    }

    public mutating func removeAll(where shouldRemove: (Tag) -> Bool) {
        entries.removeAll { shouldRemove($0.tag) }
    }

    /// The earliest timer due at `time`, removed from the queue.
    public mutating func popDue(at time: Double) -> (deadline: Double, tag: Tag)? {
        guard let first = entries.first, first.deadline <= time else { return nil }
        entries.removeFirst()
        return first
    }
}
