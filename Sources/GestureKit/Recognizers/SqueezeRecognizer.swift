/// A squeeze: discrete, recognized once the force reaches its threshold; a contact that
/// lifts (or travels past the slop) first fails.
public struct SqueezeRecognizer: GestureRecognizer {
    public struct Configuration: Sendable, Hashable {
        public var threshold: Double
        public var slop: Double
        /// The highest force an ordinary touch reaches (see `DeepPressRecognizer.Configuration`).
        public var ordinary: Double

        public init(threshold: Double = Keys.threshold.standard, slop: Double = Keys.slop.standard, ordinary: Double? = nil) {
            self.threshold = threshold
            self.slop = slop
            self.ordinary = ordinary ?? Keys.ordinary.standard(following: threshold)
        }

        /// A squeeze's keys in a config binding.
        public enum Keys {
            public static let threshold = NumberKey("threshold", .force, 0.01...1, standard: 0.5)
            public static let slop = NumberKey("slop", .pixels, 0...10_000, standard: 12)
            public static let ordinary = DependentNumberKey("ordinary", .force, 0...1, follows: "threshold", by: .half)
        }

        public static let schema = GestureSchema(.squeeze, [Keys.threshold.entry, Keys.slop.entry, Keys.ordinary.entry])
    }

    public let configuration: Configuration
    /// While watching: where the contact went down.
    private var phase = RecognizerPhase<Point>.idle

    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerStep {
        switch phase.route(input, of: .squeeze) {
        case .begin(let sample):
            phase = .watching(sample.position)
            return recognizeIfSqueezed(sample)
        case .move(let origin, let sample):
            if sample.position.distance(to: origin) > configuration.slop {
                return phase.finish(GestureReport(.failed, at: sample))
            }
            return recognizeIfSqueezed(sample)
        case .up(_, let sample), .cancel(_, let sample):
            return phase.finish(GestureReport(.failed, at: sample))
        case .settled(let step):
            return step
        }
    }

    private mutating func recognizeIfSqueezed(_ sample: ContactSample) -> RecognizerStep {
        guard let force = sample.force, force >= configuration.threshold else { return .nothing }
        return phase.finish(GestureReport(.recognized, at: sample, force: force))
    }
}
