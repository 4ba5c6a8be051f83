/// A deep press: pressing harder than a threshold. Continuous, with hysteresis.
///
/// Begins when force reaches `threshold`, reports force changes while deep, and ends when
/// the force falls below `release` (lower than the threshold, so a trembling hand near the
/// threshold does not end and restart it) or the contact lifts. A contact that lifts
/// without a deep press fails; one that travels farther than `slop` before it began is a
/// drag, and the deep press is cancelled. One deep press per contact: pressing hard again
/// after the release does not start a second one.
public struct DeepPressRecognizer: GestureRecognizer {
    public struct Configuration: Sendable, Hashable {
        public var threshold: Double
        public var release: Double
        /// Pixels the contact may travel before the deep press starts.
        public var slop: Double
        /// The highest force an ordinary touch reaches: a still press whose force levels off at
        /// or below it is no deep press in the making, and goes to the application at once.
        /// The engine's hold follows it (`HoldPolicy`); the recognizer itself does not.
        public var ordinary: Double
        /// `threshold: learned`: the three levels above are where it starts, and each device's
        /// learned levels replace them (`HandLearner`, unless the config says `learn: false`).
        public var learned: Bool

        public init(threshold: Double = Keys.threshold.number.standard, release: Double? = nil,
                    slop: Double = Keys.slop.standard, ordinary: Double? = nil, learned: Bool = false) {
            self.learned = learned
            self.threshold = threshold
            self.release = release ?? Keys.release.standard(following: threshold)
            self.slop = slop
            self.ordinary = ordinary ?? Keys.ordinary.standard(following: threshold)
        }

        /// A deep press's keys in a config binding.
        public enum Keys {
            /// `learned` starts at `PressLevels.start` and learns each device's levels.
            public static let threshold = LearnableNumberKey(NumberKey("threshold", .force, 0.01...1, standard: 0.75),
                                                             or: "learned")
            public static let release = DependentNumberKey("release", .force, 0...1, follows: "threshold", by: .less(0.15))
            public static let slop = NumberKey("slop", .pixels, 0...10_000, standard: 12)
            public static let ordinary = DependentNumberKey("ordinary", .force, 0...1, follows: "threshold", by: .half)
        }

        public static let schema = GestureSchema(.deepPress, [Keys.threshold.entry, Keys.release.entry, Keys.slop.entry,
                                                              Keys.ordinary.entry])

        /// The same deep press at other levels (a device's learned ones).
        func at(_ levels: PressLevels) -> Configuration {
            var copy = self
            copy.threshold = levels.threshold
            copy.release = levels.release
            copy.ordinary = levels.ordinary
            return copy
        }
    }

    /// A press watched: not deep yet (where it went down), or deep (the force last reported).
    private enum Press: Sendable {
        case possible(origin: Point)
        case deep(lastForce: Double)
    }

    public let configuration: Configuration
    private var phase = RecognizerPhase<Press>.idle

    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerStep {
        switch phase.route(input, of: .deepPress) {
        case .begin(let sample):
            phase = .watching(.possible(origin: sample.position))
            return beginIfDeep(sample)
        case .move(.possible(let origin), let sample):
            if sample.position.distance(to: origin) > configuration.slop {
                return phase.finish(GestureReport(.cancelled, at: sample))
            }
            return beginIfDeep(sample)
        case .up(.possible, let sample), .cancel(.possible, let sample):
            return phase.finish(GestureReport(.failed, at: sample))
        case .move(.deep(let last), let sample):
            let force = sample.force ?? 0
            if force < configuration.release {
                return phase.finish(GestureReport(.ended, at: sample, force: force))
            }
            return phase.forceChanged(from: last, to: force, at: sample, watching: .deep(lastForce: force))
        case .up(.deep, let sample):
            return phase.finish(GestureReport(.ended, at: sample, force: sample.force ?? 0))
        case .cancel(.deep, let sample):
            return phase.finish(GestureReport(.cancelled, at: sample))
        case .settled(let step):
            return step
        }
    }

    private mutating func beginIfDeep(_ sample: ContactSample) -> RecognizerStep {
        guard let force = sample.force, force >= configuration.threshold else { return .nothing }
        phase = .watching(.deep(lastForce: force))
        return .report(GestureReport(.began, at: sample, force: force))
    }
}
