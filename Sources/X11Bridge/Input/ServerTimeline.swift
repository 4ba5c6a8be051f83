/// When input happened, on the bridge's own clock: the X server's millisecond timestamp of
/// each event, carried over by the smallest delay seen between an event's timestamp and its
/// reading.
///
/// The time an event is read says when the bridge got round to it, not when the hand moved: a
/// busy machine leaves the bridge unscheduled for a while and then hands it a burst of samples
/// read within a millisecond. A force trend judged on such times sees a climb as a step, and
/// a gap as a still press (`HoldPolicy`). The server stamps each event as its input thread
/// reads the device, so its timestamps keep the samples' real spacing.
///
/// The carry-over is the least delay seen so far (the event read soonest after it happened),
/// so a carried time is never later than its reading. For a server on another machine it may
/// creep later by `remoteDrift` a second (two clocks run at slightly different rates); a server
/// on this machine stamps with the same monotonic clock as the bridge, and its carry-over never
/// grows: grown over an idle afternoon, it would take the delay of the first backlog after it
/// for drift, and squeeze that backlog's times together at its reading. It starts afresh when
/// a timestamp is more than `staleness` older than the newest (a server whose clock jumped
/// back; one that jumped on is read sooner than ever, which resets it by itself).
struct ServerTimeline: Sendable {
    /// How fast a remote server's carry-over may grow, in seconds per second: 100 ppm, more
    /// than two crystal clocks drift apart.
    static let remoteDrift = 1e-4
    /// How fast this one's may grow: `remoteDrift`, or none for a server on this machine.
    let drift: Double
    /// A stamp this far behind the newest means the server's clock jumped back.
    static let staleness = 5.0
    /// Milliseconds in the 32-bit count's turn (49.7 days).
    private static let wrap = 4_294_967_296.0

    /// Bridge seconds minus server seconds, at the least-delayed event; nil before the first.
    private var offset: Double?
    /// When `offset` was last set or allowed to grow, on the bridge's clock.
    private var offsetTime = 0.0
    /// The newest timestamp seen, and it in seconds counted on past the 32-bit wrap.
    private var lastStamp: UInt32?
    private var lastServer = 0.0
    /// When the newest timestamp was read, on the bridge's clock.
    private var lastRead = 0.0
    /// The last time given out: times never go back.
    private var lastTime = -Double.infinity

    init(drift: Double = Self.remoteDrift) {
        self.drift = drift
    }

    /// The time, on the bridge's clock, of an event stamped `stamp` (server milliseconds, 0
    /// when unknown) and read at `now`: never later than `now`, never earlier than the time
    /// given for the event before.
    mutating func time(ofStamp stamp: UInt, readAt now: Double) -> Double {
        let carried = stamp == 0 ? now : carry(UInt32(truncatingIfNeeded: stamp), readAt: now)
        lastTime = Swift.max(lastTime, Swift.min(carried, now))
        return lastTime
    }

    private mutating func carry(_ stamp: UInt32, readAt now: Double) -> Double {
        // The count wraps after 49.7 days: a timestamp is as far from the newest as, of the
        // distances its 32 bits allow, the one nearest the time the bridge saw pass since it
        // read the newest. A wrap mid-press reads as a step forward, an event stamped a little
        // before the newest as a step back, and the first input after an idle longer than the
        // wrap (a session on a VT switched away from all summer) as that long after: told
        // apart by the signed distance alone, it was dated 49.7 days early, and every contact
        // from then on found its timers already due. Found in review.
        let server = lastStamp.map { last in
            let raw = Double(stamp &- last)
            let elapsed = Swift.max(0, now - lastRead) * 1000
            let turns = ((elapsed - raw) / Self.wrap).rounded()
            return lastServer + (raw + turns * Self.wrap) / 1000
        } ?? Double(stamp) / 1000
        // A stamp far older than the newest: the server's clock jumped back. (A stamp merely
        // read late is the bridge's delay, whatever its length: a swapping machine's backlog
        // keeps its spacing.)
        let jumpedBack = lastStamp != nil && server < lastServer - Self.staleness
        // Newer stamps move the reference on; so does a clock that jumped back.
        if server >= lastServer || jumpedBack || lastStamp == nil {
            lastStamp = stamp
            lastServer = server
            lastRead = now
        }
        let measured = now - server
        var current = measured
        if let previous = offset, !jumpedBack {
            let grown = previous + drift * Swift.max(0, now - offsetTime)
            if grown <= measured { current = grown }
        }
        offset = current
        offsetTime = now
        return server + current
    }
}
