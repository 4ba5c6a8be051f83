/// When the event loop may leave the X connection unread for a while: the batching policy,
/// apart from the wait itself, so it can be tested on a clock the test gives.
///
/// Input is fast when wakeups that read it come `fastInputGap` apart or closer, `fastInputRun`
/// in a row (50 ms of a 1000 Hz stream); only then, and only while the client says reading
/// late changes nothing a person notices, does a lull begin. A lull runs to its end whatever
/// else wakes the loop (a timer, a signal); the contact bell ends it at once. A lull's batch
/// of fewer than two events means the stream thinned out: back to a wakeup per event.
struct InputBatching {
    static let fastInputGap = 0.002
    static let fastInputRun = 50
    /// How long a lull leaves the connection unread: long when nothing is lost by it until a
    /// contact begins or ends, which the bell rings for (20 wakeups a second under a 1000 Hz
    /// stream instead of 1000); a display frame at 60 Hz when what the input does waits for
    /// it, or when there is no bell. Each wakeup, not each sample, is most of the cost
    /// (BENCHMARKS.md).
    static let longLull = 0.05
    static let frameLull = 0.016

    /// When the lull under way ends, if one is.
    private(set) var lullEnd: Double?
    private var fastReads = 0
    private var lastRead = -Double.infinity

    /// After a wakeup's reading (`handled` events; `lulled`: that reading ended a lull): how
    /// long the X connection stays out of the next wait, or nil to wait on it. `client` is
    /// asked only when a lull could begin.
    mutating func lull(afterReading handled: Int, lulled: Bool, at now: Double, hasBell: Bool,
                       client: @autoclosure () -> InputLull?) -> Double? {
        if handled > 0 {
            fastReads = now - lastRead <= Self.fastInputGap || lulled && handled >= 2 ? fastReads + 1 : 0
            lastRead = now
        } else if lulled {
            fastReads = 0
        }
        if let end = lullEnd, end > now { return end - now }
        guard handled > 0, fastReads >= Self.fastInputRun, let kind = client() else {
            lullEnd = nil
            return nil
        }
        let length = Self.duration(of: kind, hasBell: hasBell)
        lullEnd = now + length
        return length
    }

    /// The contact bell rang: a contact began or ended. The lull ends now, and input is read
    /// as it comes until it is fast again.
    mutating func contactChanged() {
        fastReads = 0
        lullEnd = nil
    }

    /// After the wait, when the connection was left out of it: whether the lull has run out,
    /// so the connection is read now.
    mutating func lullRanOut(at now: Double) -> Bool {
        guard let end = lullEnd else { return true }
        guard now >= end else { return false }
        lullEnd = nil
        return true
    }

    static func duration(of lull: InputLull, hasBell: Bool) -> Double {
        switch lull {
        case .untilContactChanges: return hasBell ? longLull : frameLull
        case .onceAFrame: return frameLull
        }
    }
}
