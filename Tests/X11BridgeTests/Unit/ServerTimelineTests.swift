import Testing
@testable import X11Bridge

/// Input's times come from the server's stamps, carried onto the bridge's clock: a burst read
/// all at once keeps the spacing the samples were made with.
@Suite("Input times from the server's stamps")
struct ServerTimelineTests {
    @Test("samples made 28 ms apart and read in one burst keep their 28 ms")
    func burstKeepsSpacing() {
        var timeline = ServerTimeline()
        // Read 2 ms after each stamp: the delay the carry-over settles on.
        #expect(timeline.time(ofStamp: 10_000, readAt: 100.002) == 100.002)
        #expect(abs(timeline.time(ofStamp: 10_028, readAt: 100.030) - 100.030) < 1e-9)
        // The bridge was kept from running: five samples read within a millisecond, 0.3 s late.
        let times = (1...5).map { index in
            timeline.time(ofStamp: UInt(10_028 + 28 * index), readAt: 100.400 + Double(index) * 0.0002)
        }
        for (index, time) in times.enumerated() {
            #expect(abs(time - (100.030 + 0.028 * Double(index + 1))) < 1e-4)
        }
    }

    @Test("a time is never later than its reading, and never earlier than the one before")
    func orderAndBound() {
        var timeline = ServerTimeline()
        _ = timeline.time(ofStamp: 5_000, readAt: 50.010)
        // Read sooner after its stamp than ever before: the carry-over shrinks to that delay.
        #expect(timeline.time(ofStamp: 5_100, readAt: 50.101) == 50.101)
        // Stamped before the last: dated with it, not before.
        #expect(timeline.time(ofStamp: 5_090, readAt: 50.120) == 50.101)
        // Timers fired at 50.5: input read after that is dated no earlier.
        _ = timeline.time(ofStamp: 0, readAt: 50.5)
        #expect(timeline.time(ofStamp: 5_300, readAt: 50.6) == 50.5)
    }

    @Test("the 32-bit millisecond count wrapping after 49.7 days is a step forward")
    func wrap() {
        var timeline = ServerTimeline()
        let last = UInt(UInt32.max) - 9
        #expect(timeline.time(ofStamp: last, readAt: 7) == 7)
        #expect(abs(timeline.time(ofStamp: 20, readAt: 7.030) - 7.030) < 1e-9)
        #expect(abs(timeline.time(ofStamp: 48, readAt: 7.100) - 7.058) < 1e-4)
    }

    /// Found in review of clocks over weeks: after more than 49.7 days without input (a
    /// session on a VT switched away from all summer), a stamp's signed distance read as a small
    /// step, every event was dated 49.7 days early, and every contact found its timers due.
    @Test("input after 56 idle days, and after 80, is dated at its reading, its samples their spacing apart", arguments: [56.0, 80.0])
    func idleBeyondWrap(days: Double) {
        var timeline = ServerTimeline(drift: 0)
        #expect(timeline.time(ofStamp: 10_000, readAt: 100.002) == 100.002)
        let idle = days * 86_400
        let stamp = UInt(UInt32(truncatingIfNeeded: UInt64(10_000 + idle * 1000)))
        let now = 100.002 + idle
        #expect(abs(timeline.time(ofStamp: stamp, readAt: now) - now) < 0.01)
        #expect(abs(timeline.time(ofStamp: stamp + 20, readAt: now + 0.021) - (now + 0.020)) < 0.01)
        // A sample stamped a little before the newest is still a step back, not a turn on.
        #expect(abs(timeline.time(ofStamp: stamp + 10, readAt: now + 0.022) - (now + 0.020)) < 0.01)
    }

    /// Found in review: the first sample of the backlog, more than 5 s late, was taken for a
    /// server clock that had jumped, and the whole backlog was dated at its reading: a long
    /// press made in the last second of the stall read as a tap.
    @Test("samples a second apart read in one burst 6 s late (a swapping machine) keep their spacing")
    func longStallKeepsSpacing() {
        var timeline = ServerTimeline()
        #expect(timeline.time(ofStamp: 10_000, readAt: 100.002) == 100.002)
        let times = stride(from: 10_000, through: 11_000, by: 10).map { stamp in
            timeline.time(ofStamp: UInt(stamp), readAt: 106.0 + Double(stamp - 10_000) * 1e-6)
        }
        #expect(abs((times.last ?? 0) - (times.first ?? 0) - 1.0) < 1e-3, "\(times.prefix(3)) … \(times.suffix(3))")
        #expect(abs((times.last ?? 0) - 101.002) < 1e-3)
    }

    /// Found in review: the carry-over grew by its drift allowance over two idle hours (0.7 s),
    /// and the first backlog after them, read late, was taken for drift: its times squeezed
    /// together at the reading, a 0.8 s long press read as 0.18 s.
    @Test("a server on this machine, two idle hours, then a finger held 0.8 s read in a 0.9 s stall: still 0.8 s")
    func stallAfterIdleKeepsSpacing() {
        var timeline = ServerTimeline(drift: 0)
        #expect(timeline.time(ofStamp: 10_000, readAt: 100.002) == 100.002)
        // Made at 7300.002 and 7300.802, read at 7300.9.
        let down = timeline.time(ofStamp: 7_210_000, readAt: 7_300.9)
        let up = timeline.time(ofStamp: 7_210_800, readAt: 7_300.9001)
        #expect(abs(down - 7_300.002) < 0.01, "\(down)")
        #expect(abs((up - down) - 0.8) < 0.01, "\(up - down)")
    }

    @Test("a server on another machine, its clock a little fast: the carry-over follows it")
    func remoteDrift() {
        var timeline = ServerTimeline()
        _ = timeline.time(ofStamp: 10_000, readAt: 100.002)
        // 1000 s on, the server's clock 50 ms behind the bridge's more than before (50 ppm):
        // read promptly, the event is dated at its reading, not 50 ms before it.
        #expect(abs(timeline.time(ofStamp: 1_010_000, readAt: 1_100.052) - 1_100.052) < 1e-6)
    }

    @Test("a server clock that jumps back starts the carry-over afresh; no stamp is read as now")
    func jumpAndUnknown() {
        var timeline = ServerTimeline()
        _ = timeline.time(ofStamp: 900_000, readAt: 10)
        // The server's clock went back ten minutes: carried, the time would be long past.
        #expect(timeline.time(ofStamp: 300_000, readAt: 11) == 11)
        #expect(abs(timeline.time(ofStamp: 300_050, readAt: 11.2) - 11.05) < 1e-4)
        #expect(timeline.time(ofStamp: 0, readAt: 12) == 12)
    }
}
