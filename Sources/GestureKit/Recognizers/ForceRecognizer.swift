/// Continuous force: begins when the contact goes down and reports every change of its
/// normalized force until the contact lifts.
public struct ForceRecognizer: GestureRecognizer {
    public struct Configuration: Sendable, Hashable {
        /// The force (0...1 of the device's range) that reads as 1. Lower values make light
        /// pens reach the top; it can never exceed the device's own maximum.
        public var maximum: Double

        public init(maximum: Double = 1) {
            self.maximum = Swift.min(1, Swift.max(maximum, .ulpOfOne))
        }

        /// The device's normalized force rescaled against `maximum`, clamped to 0...1.
        public func scaled(_ force: Double) -> Double {
            Swift.min(1, Swift.max(0, force / maximum))
        }
    }

    private enum State: Sendable {
        case idle
        case tracking(lastForce: Double)
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
            guard let force = sample.force else {
                state = .done
                return .report(GestureReport(.failed, at: sample, force: nil))
            }
            let value = configuration.scaled(force)
            state = .tracking(lastForce: value)
            return .report(GestureReport(.began, at: sample, force: value))
        case (.tracking(let last), .move(let sample)):
            let value = configuration.scaled(sample.force ?? 0)
            guard value != last else { return .nothing }
            state = .tracking(lastForce: value)
            return .report(GestureReport(.changed, at: sample, force: value))
        case (.tracking, .up(let sample)):
            state = .done
            return .report(GestureReport(.ended, at: sample, force: configuration.scaled(sample.force ?? 0)))
        case (.tracking, .cancel(let sample)):
            state = .done
            return .report(GestureReport(.cancelled, at: sample, force: nil))
        case (.done, .move), (.done, .up), (.done, .cancel):
            return .nothing
        case (.idle, .move), (.idle, .up), (.idle, .cancel), (.tracking, .down), (.done, .down), (_, .timeout):
            return .unexpected(input, to: .force)
        }
    }
}
