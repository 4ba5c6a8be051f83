import Testing

/// The time every scripted event carries. Advancing it fires the timers that fall due on the
/// way, as the live event loop does, so time-based decisions land exactly on their deadlines.
final class VirtualClock {
    /// One frame of a 60 Hz device: the usual time from one sample of a script to the next.
    static let frame = 0.016

    private(set) var now: Double
    /// Called with the new time after each advance; the script fires the engine's timers here.
    var onAdvance: ((Double) -> Void)?

    init(startingAt start: Double = 0) {
        now = start
    }

    func advance(by seconds: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        advance(to: now + seconds, sourceLocation: sourceLocation)
    }

    func advance(to time: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        guard time >= now else {
            Issue.record("the clock cannot go back from \(now) to \(time)", sourceLocation: sourceLocation)
            return
        }
        now = time
        onAdvance?(time)
    }
}
