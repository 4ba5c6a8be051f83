import Testing
@testable import X11Bridge

/// The event loop's batching policy on a clock the test gives: when fast input may be read in
/// batches, how long, and what ends a batch early.
@Suite("Batching fast input")
struct InputBatchingTests {
    /// A stream read every `gap` seconds, one event a read, from `start`; returns the lull each
    /// read asked for, and the time of the last read.
    static func stream(_ batching: inout InputBatching, reads: Int, gap: Double, from start: Double = 1,
                       client: InputLull? = .untilContactChanges, hasBell: Bool = true) -> (lulls: [Double?], end: Double) {
        var time = start
        var lulls: [Double?] = []
        for _ in 0..<reads {
            lulls.append(batching.lull(afterReading: 1, lulled: false, at: time, hasBell: hasBell, client: client))
            time += gap
        }
        return (lulls, time - gap)
    }

    @Test("a 1000 Hz stream: the fiftieth read in a row under 2 ms apart begins a 50 ms lull")
    func fastStreamLulls() {
        var batching = InputBatching()
        let (lulls, end) = Self.stream(&batching, reads: 51, gap: 0.001)
        // The first read has no read before it to be close to.
        #expect(lulls.prefix(50).allSatisfy { $0 == nil })
        #expect(lulls.last == InputBatching.longLull)
        #expect(batching.lullEnd == end + InputBatching.longLull)
    }

    @Test("without a contact bell, or for a turning knob, a lull lasts one display frame", arguments: [
        (InputLull.untilContactChanges, false), (InputLull.onceAFrame, true), (InputLull.onceAFrame, false),
    ])
    func frameLulls(client: InputLull, hasBell: Bool) {
        var batching = InputBatching()
        let (lulls, _) = Self.stream(&batching, reads: 51, gap: 0.001, client: client, hasBell: hasBell)
        #expect(lulls.last == InputBatching.frameLull)
    }

    @Test("input that is slow, or that the client wants read as it comes, is never batched")
    func noLull() {
        var slow = InputBatching()
        #expect(Self.stream(&slow, reads: 200, gap: 0.005).lulls.allSatisfy { $0 == nil })
        var wanted = InputBatching()
        #expect(Self.stream(&wanted, reads: 200, gap: 0.001, client: nil).lulls.allSatisfy { $0 == nil })
    }

    @Test("a lull runs to its end when something else wakes the loop; then the connection is read")
    func lullRunsToItsEnd() {
        var batching = InputBatching()
        let (_, end) = Self.stream(&batching, reads: 51, gap: 0.001)
        // A timer wakes the loop 10 ms in: the lull goes on for what is left of it.
        let left = batching.lull(afterReading: 0, lulled: false, at: end + 0.01, hasBell: true, client: .untilContactChanges)
        #expect(left.map { abs($0 - (InputBatching.longLull - 0.01)) < 1e-9 } == true)
        let early = batching.lullRanOut(at: end + 0.01)
        let due = batching.lullRanOut(at: end + InputBatching.longLull)
        #expect(!early && due)
        #expect(batching.lullEnd == nil)
    }

    @Test("a lull's batch of at least two events keeps batching; a thinner one goes back to a wakeup per event")
    func batchesThatThinOut() {
        var batching = InputBatching()
        let (_, end) = Self.stream(&batching, reads: 51, gap: 0.001)
        let after = end + InputBatching.longLull
        let first = batching.lullRanOut(at: after)
        let full = batching.lull(afterReading: 50, lulled: true, at: after, hasBell: true, client: .untilContactChanges)
        #expect(first && full == InputBatching.longLull)
        let next = after + InputBatching.longLull
        let second = batching.lullRanOut(at: next)
        let thin = batching.lull(afterReading: 1, lulled: true, at: next, hasBell: true, client: .untilContactChanges)
        #expect(second && thin == nil)
    }

    @Test("the contact bell ends a lull at once, and counting starts again")
    func bellEndsTheLull() {
        var batching = InputBatching()
        let (_, end) = Self.stream(&batching, reads: 51, gap: 0.001)
        batching.contactChanged()
        #expect(batching.lullEnd == nil)
        let ranOut = batching.lullRanOut(at: end + 0.001)
        #expect(ranOut)
        let (lulls, _) = Self.stream(&batching, reads: 50, gap: 0.001, from: end + 0.001)
        #expect(lulls.prefix(49).allSatisfy { $0 == nil }, "fifty more fast reads before the next lull")
        #expect(lulls.last == InputBatching.longLull)
    }
}
