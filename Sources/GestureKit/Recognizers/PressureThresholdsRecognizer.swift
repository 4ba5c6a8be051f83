/// Reports every pressure threshold the force reaches or crosses, in the order it passed
/// them: several in one sample when the force jumps. A force landing exactly on a threshold
/// has reached it. With no thresholds it reports every change of force instead.
///
/// `hysteresis` keeps a hand resting on a threshold from chattering: the force must fall
/// that far below a threshold before it counts as crossed downwards. Lifting (or a cancel)
/// crosses every threshold still reached downwards before the gesture ends.
public struct PressureThresholdsRecognizer: GestureRecognizer {
    public struct Configuration: Sendable, Hashable {
        /// Sorted ascending, distinct, each in 0...1.
        public private(set) var thresholds: [Double]
        public var hysteresis: Double

        public init(thresholds: [Double], hysteresis: Double = 0) {
            self.thresholds = Array(Set(thresholds)).sorted()
            self.hysteresis = Swift.max(0, hysteresis)
        }

        /// How many thresholds the force has reached, given how many it had reached before.
        func level(for force: Double, from previous: Int) -> Int {
            let reached = thresholds.prefix { $0 <= force }.count
            if reached > previous { return reached }
            let held = thresholds.prefix { $0 - hysteresis <= force }.count
            return Swift.min(previous, held)
        }
    }

    private enum State: Sendable {
        case idle
        case tracking(level: Int, lastForce: Double)
        case done
    }

    public let configuration: Configuration
    private var state = State.idle

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerStep {
        switch (state, input) {
        case (.idle, .down(let sample)):
            guard let force = sample.force else {
                state = .done
                return .report(GestureReport(.failed, at: sample, force: nil))
            }
            state = .tracking(level: 0, lastForce: force)
            var reports = [GestureReport(.began, at: sample, force: force)]
            reports += crossings(from: 0, sample: sample, force: force)
            return RecognizerStep(reports: reports)
        case (.tracking(let level, let last), .move(let sample)):
            let force = sample.force ?? 0
            if configuration.thresholds.isEmpty {
                guard force != last else { return .nothing }
                state = .tracking(level: 0, lastForce: force)
                return .report(GestureReport(.changed, at: sample, force: force))
            }
            return RecognizerStep(reports: crossings(from: level, sample: sample, force: force))
        case (.tracking(let level, _), .up(let sample)):
            // Lifting lets go of every threshold still held: a `down` action paired with an
            // `up` one (press, release) must not be left pending.
            var reports = crossings(from: level, sample: sample, force: 0)
            state = .done
            reports.append(GestureReport(.ended, at: sample, force: 0))
            return RecognizerStep(reports: reports)
        case (.tracking(let level, _), .cancel(let sample)):
            var reports = crossings(from: level, sample: sample, force: 0)
            state = .done
            reports.append(GestureReport(.cancelled, at: sample))
            return RecognizerStep(reports: reports)
        case (.done, .move), (.done, .up), (.done, .cancel):
            return .nothing
        case (.idle, .move), (.idle, .up), (.idle, .cancel), (.tracking, .down), (.done, .down), (_, .timeout):
            return .unexpected(input, to: .pressureThresholds)
        }
    }

    /// One `changed` report per threshold passed between the old level and the new one.
    private mutating func crossings(from level: Int, sample: ContactSample, force: Double) -> [GestureReport] {
        let newLevel = configuration.level(for: force, from: level)
        state = .tracking(level: newLevel, lastForce: force)
        let passed: [ThresholdCrossing]
        if newLevel > level {
            passed = (level..<newLevel).map { ThresholdCrossing(index: $0, direction: .up) }
        } else if newLevel < level {
            passed = (newLevel..<level).reversed().map { ThresholdCrossing(index: $0, direction: .down) }
        } else {
            passed = []
        }
        return passed.map {
            GestureReport(state: .changed, time: sample.time, position: sample.position, force: force, crossing: $0)
        }
    }
}
