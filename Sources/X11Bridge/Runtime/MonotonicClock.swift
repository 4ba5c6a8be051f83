import Glibc

/// Seconds on the monotonic clock since the clock was made: the engine's time in a live
/// session. It never jumps with the wall clock, so timers and traces stay in order.
public struct MonotonicClock: Sendable {
    public let origin: Double

    public init() {
        origin = Self.absolute()
    }

    public var now: Double { Self.absolute() - origin }

    static func absolute() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}
