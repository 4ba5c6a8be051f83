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

        public init(thresholds: [Double], hysteresis: Double = Keys.hysteresis.standard) {
            self.thresholds = Array(Set(thresholds)).sorted()
            self.hysteresis = Swift.max(0, hysteresis)
        }

        /// The keys of a pressure-thresholds gesture in a config binding. `up` and `down` fire
        /// once per threshold crossed that way.
        public enum Keys {
            /// Left out or empty: every change of force is reported.
            public static let thresholds = NumberListKey("thresholds", of: .force, 0...1)
            public static let hysteresis = NumberKey("hysteresis", .force, 0...1, standard: 0.05)
            public static let up = ActionsKey("up")
            public static let down = ActionsKey("down")
        }

        public static let schema = GestureSchema(.pressureThresholds, [Keys.thresholds.entry, Keys.hysteresis.entry,
                                                                       Keys.up.entry, Keys.down.entry])

        /// How many thresholds the force has reached, given how many it had reached before.
        func level(for force: Double, from previous: Int) -> Int {
            let reached = thresholds.prefix { $0 <= force }.count
            if reached > previous { return reached }
            let held = thresholds.prefix { $0 - hysteresis <= force }.count
            return Swift.min(previous, held)
        }
    }

    /// A contact watched: how many thresholds its force has reached, and the force last seen.
    private struct Watch: Sendable {
        var level: Int
        var lastForce: Double
    }

    public let configuration: Configuration
    private var phase = RecognizerPhase<Watch>.idle

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerStep {
        switch phase.route(input, of: .pressureThresholds) {
        case .begin(let sample):
            guard let force = sample.force else {
                return phase.finish(GestureReport(.failed, at: sample, force: nil))
            }
            phase = .watching(Watch(level: 0, lastForce: force))
            var reports = [GestureReport(.began, at: sample, force: force)]
            reports += crossings(from: 0, sample: sample, force: force)
            return RecognizerStep(reports: reports)
        case .move(let watch, let sample):
            let force = sample.force ?? 0
            if configuration.thresholds.isEmpty {
                return phase.forceChanged(from: watch.lastForce, to: force, at: sample,
                                          watching: Watch(level: 0, lastForce: force))
            }
            return RecognizerStep(reports: crossings(from: watch.level, sample: sample, force: force))
        case .up(let watch, let sample):
            // Lifting lets go of every threshold still held, whatever the hysteresis would keep
            // at force 0: a `down` action paired with an `up` one (press, release) must not be
            // left pending.
            let reports = crossings(from: watch.level, to: 0, sample: sample, force: 0)
            return phase.finish(reports + [GestureReport(.ended, at: sample, force: 0)])
        case .cancel(let watch, let sample):
            let reports = crossings(from: watch.level, to: 0, sample: sample, force: 0)
            return phase.finish(reports + [GestureReport(.cancelled, at: sample)])
        case .settled(let step):
            return step
        }
    }

    /// One `changed` report per threshold passed between the old level and the one `force`
    /// reaches.
    private mutating func crossings(from level: Int, sample: ContactSample, force: Double) -> [GestureReport] {
        crossings(from: level, to: configuration.level(for: force, from: level), sample: sample, force: force)
    }

    /// One `changed` report per threshold passed between the old level and `newLevel`.
    private mutating func crossings(from level: Int, to newLevel: Int, sample: ContactSample, force: Double) -> [GestureReport] {
        phase = .watching(Watch(level: newLevel, lastForce: force))
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
