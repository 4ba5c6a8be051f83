import Testing
@testable import GestureKit
import SeededRandom

/// A press as a person makes it: force over time, sampled at a device's rate. Times are
/// seconds from touch-down.
struct ForceCurve {
    var samples: [(time: Double, force: Double)]

    /// A press held at `force`, with uniform noise of ±`noise` (force units) on each sample.
    static func flat(_ force: Double, noise: Double = 0, hertz: Double, seconds: Double,
                     using generator: inout SplitMix64) -> ForceCurve {
        ForceCurve(samples: times(hertz: hertz, seconds: seconds).map { time in
            (time, clamp(force + (noise > 0 ? Double.random(in: -noise...noise, using: &generator) : 0)))
        })
    }

    /// A press that climbs from `from` at `rate` force per second, up to `ceiling`, where it stays.
    static func climb(from start: Double = 0, rate: Double, ceiling: Double = 1, hertz: Double, seconds: Double) -> ForceCurve {
        ForceCurve(samples: times(hertz: hertz, seconds: seconds).map { ($0, clamp(min(ceiling, start + rate * $0))) })
    }

    /// Straight lines between (time, force) corners.
    static func corners(_ corners: [(Double, Double)], hertz: Double) -> ForceCurve {
        guard let end = corners.last?.0 else { return ForceCurve(samples: []) }
        return ForceCurve(samples: times(hertz: hertz, seconds: end).map { time in
            let after = corners.firstIndex { $0.0 >= time } ?? corners.count - 1
            guard after > 0 else { return (time, corners[0].1) }
            let (t0, f0) = corners[after - 1], (t1, f1) = corners[after]
            return (time, f0 + (f1 - f0) * (time - t0) / (t1 - t0))
        })
    }

    /// When the force first reaches `force`, or nil if it never does.
    func time(reaching force: Double) -> Double? {
        samples.first { $0.force >= force }?.time
    }

    private static func times(hertz: Double, seconds: Double) -> [Double] {
        let count = Int((seconds * hertz).rounded())
        return (0...count).map { Double($0) / hertz }
    }

    private static func clamp(_ force: Double) -> Double { min(1, max(0, force)) }
}

extension GestureScript {
    /// Puts the pen down at (300, 300) now and presses along `curve`, keeping it still;
    /// lifts at the curve's end unless `lift` is false. The clock ends at the last sample.
    func pressPen(along curve: ForceCurve, lift: Bool = true) {
        let start = clock.now
        guard let first = curve.samples.first else { return }
        pen.down(at: (300, 300), force: first.force)
        for sample in curve.samples.dropFirst() {
            clock.advance(to: start + sample.time)
            pen.press(to: sample.force)
        }
        if lift { pen.lift() }
    }

    /// The one decision about the pen's contact, and how long after touch-down it came.
    func penDecision(since start: Double) -> (decision: ScriptDecision, after: Double)? {
        guard let decision = engineDecisions.first(where: { $0.key == pen.key }) else { return nil }
        return (ScriptDecision(decision), decision.time - start)
    }
}
