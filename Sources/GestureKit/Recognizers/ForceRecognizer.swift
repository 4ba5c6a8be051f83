/// Continuous force: begins when the contact goes down and reports every change of its
/// normalized force until the contact lifts.
public struct ForceRecognizer: GestureRecognizer {
    public struct Configuration: Sendable, Hashable {
        /// The force (0...1 of the device's range) that reads as 1. Lower values make light
        /// pens reach the top; it can never exceed the device's own maximum.
        public var maximum: Double

        public init(maximum: Double = Keys.maximum.standard) {
            self.maximum = Swift.min(1, Swift.max(maximum, .ulpOfOne))
        }

        /// A force gesture's keys in a config binding. `step`, `up` and `down` make a
        /// binding's `StepActions`: one action per `step` the force rises or falls.
        public enum Keys {
            public static let maximum = NumberKey("maximum", .force, 0.001...1, standard: 1)
            public static let step = NumberKey("step", .force, 0.001...1, standard: 0.1)
            public static let up = ActionsKey("up")
            public static let down = ActionsKey("down")
            public static let steps = StepKeys(step: step, increase: up, decrease: down)
        }

        public static let schema = GestureSchema(.force, [Keys.maximum.entry, Keys.step.entry, Keys.up.entry,
                                                          Keys.down.entry])

        /// The device's normalized force rescaled against `maximum`, clamped to 0...1.
        public func scaled(_ force: Double) -> Double {
            Swift.min(1, Swift.max(0, force / maximum))
        }
    }

    public let configuration: Configuration
    /// While watching: the force last reported.
    private var phase = RecognizerPhase<Double>.idle

    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerStep {
        switch phase.route(input, of: .force) {
        case .begin(let sample):
            guard let force = sample.force else {
                return phase.finish(GestureReport(.failed, at: sample, force: nil))
            }
            let value = configuration.scaled(force)
            phase = .watching(value)
            return .report(GestureReport(.began, at: sample, force: value))
        case .move(let last, let sample):
            let value = configuration.scaled(sample.force ?? 0)
            return phase.forceChanged(from: last, to: value, at: sample, watching: value)
        case .up(_, let sample):
            return phase.finish(GestureReport(.ended, at: sample, force: configuration.scaled(sample.force ?? 0)))
        case .cancel(_, let sample):
            return phase.finish(GestureReport(.cancelled, at: sample, force: nil))
        case .settled(let step):
            return step
        }
    }
}
