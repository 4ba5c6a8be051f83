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

    public var deadline: Double? { nil }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerStep {
        switch (state, input) {
        case (.idle, .down(let sample)):
            guard let force = sample.force else {
                state = .done
                return .report(GestureReport(state: .failed, time: sample.time, position: sample.position))
            }
            let value = configuration.scaled(force)
            state = .tracking(lastForce: value)
            return .report(GestureReport(state: .began, time: sample.time, position: sample.position, force: value))
        case (.tracking(let last), .move(let sample)):
            let value = configuration.scaled(sample.force ?? 0)
            guard value != last else { return .nothing }
            state = .tracking(lastForce: value)
            return .report(GestureReport(state: .changed, time: sample.time, position: sample.position, force: value))
        case (.tracking, .up(let sample)):
            state = .done
            return .report(GestureReport(state: .ended, time: sample.time, position: sample.position,
                                         force: configuration.scaled(sample.force ?? 0)))
        case (.tracking, .cancel(let sample)):
            state = .done
            return .report(GestureReport(state: .cancelled, time: sample.time, position: sample.position))
        case (.done, .move), (.done, .up), (.done, .cancel):
            return .nothing
        case (.idle, .move), (.idle, .up), (.idle, .cancel):
            return .impossible("force: contact event before the contact went down")
        case (.tracking, .down), (.done, .down):
            return .impossible("force: a second down on the same contact")
        case (_, .timeout):
            return .impossible("force: timeout without a deadline")
        }
    }
}
