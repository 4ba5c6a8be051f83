/// A long press: hold still for `duration` seconds. Discrete; for devices without pressure,
/// where it stands in for a deep press. Recognized when the timer runs out; lifting or
/// travelling past the slop first makes it fail.
public struct LongPressRecognizer: GestureRecognizer {
    public struct Configuration: Sendable, Hashable {
        public var duration: Double
        public var slop: Double

        public init(duration: Double = Keys.duration.standard, slop: Double = Keys.slop.standard) {
            self.duration = duration
            self.slop = slop
        }

        /// A long press's keys in a config binding.
        public enum Keys {
            public static let duration = NumberKey("duration", .seconds, 0.05...10, standard: 0.6)
            public static let slop = NumberKey("slop", .pixels, 0...10_000, standard: 12)
        }

        public static let schema = GestureSchema(.longPress, [Keys.duration.entry, Keys.slop.entry])
    }

    private enum State: Sendable {
        case idle
        case holding(origin: Point, last: Point, deadline: Double)
        case done
    }

    public let configuration: Configuration
    private var state = State.idle

    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public var deadline: Double? {
        if case .holding(_, _, let deadline) = state { return deadline }
        return nil
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerStep {
        switch (state, input) {
        case (.idle, .down(let sample)):
            state = .holding(origin: sample.position, last: sample.position, deadline: sample.time + configuration.duration)
            return .nothing
        case (.holding(let origin, _, let deadline), .move(let sample)):
            if sample.position.distance(to: origin) > configuration.slop {
                state = .done
                return .report(GestureReport(.failed, at: sample))
            }
            state = .holding(origin: origin, last: sample.position, deadline: deadline)
            return .nothing
        case (.holding, .up(let sample)), (.holding, .cancel(let sample)):
            state = .done
            return .report(GestureReport(.failed, at: sample))
        case (.holding(_, let last, let deadline), .timeout(let now)):
            guard now >= deadline else { return .impossible("long-press: timeout before its deadline") }
            state = .done
            return .report(GestureReport(state: .recognized, time: deadline, position: last))
        case (.done, .move), (.done, .up), (.done, .cancel), (.done, .timeout):
            return .nothing
        case (.idle, .move), (.idle, .up), (.idle, .cancel), (.holding, .down), (.done, .down):
            return .unexpected(input, to: .longPress)
        case (.idle, .timeout):
            return .impossible("long-press: timeout before the contact went down")
        }
    }
}
