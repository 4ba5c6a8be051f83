/// A squeeze: discrete, recognized once the force reaches its threshold; a contact that
/// lifts (or travels past the slop) first fails.
public struct SqueezeRecognizer: GestureRecognizer {
    public struct Configuration: Sendable, Hashable {
        public var threshold: Double
        public var slop: Double
        /// The highest force an ordinary touch reaches (see `DeepPressRecognizer.Configuration`).
        public var ordinary: Double

        public init(threshold: Double = 0.5, slop: Double = 12, ordinary: Double? = nil) {
            self.threshold = threshold
            self.slop = slop
            self.ordinary = ordinary ?? HoldPolicy.defaultOrdinary(threshold: threshold)
        }
    }

    private enum State: Sendable {
        case idle
        case possible(origin: Point)
        case done
    }

    public let configuration: Configuration
    private var state = State.idle

    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerStep {
        switch (state, input) {
        case (.idle, .down(let sample)):
            state = .possible(origin: sample.position)
            return recognizeIfSqueezed(sample)
        case (.possible(let origin), .move(let sample)):
            if sample.position.distance(to: origin) > configuration.slop {
                state = .done
                return .report(GestureReport(.failed, at: sample))
            }
            return recognizeIfSqueezed(sample)
        case (.possible, .up(let sample)), (.possible, .cancel(let sample)):
            state = .done
            return .report(GestureReport(.failed, at: sample))
        case (.done, .move), (.done, .up), (.done, .cancel):
            return .nothing
        case (.idle, .move), (.idle, .up), (.idle, .cancel), (.possible, .down), (.done, .down), (_, .timeout):
            return .unexpected(input, to: .squeeze)
        }
    }

    private mutating func recognizeIfSqueezed(_ sample: ContactSample) -> RecognizerStep {
        guard let force = sample.force, force >= configuration.threshold else { return .nothing }
        state = .done
        return .report(GestureReport(.recognized, at: sample, force: force))
    }
}
