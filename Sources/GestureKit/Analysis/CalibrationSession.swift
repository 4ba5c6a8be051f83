/// A guided calibration of one pressure device: a few ordinary contacts, then a few
/// deliberate hard presses; each contact's peak force goes into its step's group, and the two
/// groups give a `ThresholdSuggestion`.
///
/// A contact belongs to the step it began in; one the system cancels counts for nothing. A
/// step ends when it has its number of contacts, or when the person says so (`finishStep`),
/// provided it has at least one.
public struct CalibrationSession: Sendable {
    public enum Step: String, Sendable, Hashable {
        case ordinary
        case hard
        case done
    }

    /// What a person is told as the session goes.
    public enum Event: Sendable, Hashable {
        /// A contact of `step` lifted: the `count`-th of `target`, with its peak force.
        case measured(Step, count: Int, target: Int, peak: Double)
        /// `step` is over; the session is now at the next.
        case finished(Step)
        /// Asked to finish `step` before any contact of it: it goes on.
        case stillEmpty(Step)
    }

    public let device: InputDevice
    public let targets: (ordinary: Int, hard: Int)
    public private(set) var step = Step.ordinary
    public private(set) var ordinaryPeaks: [Double] = []
    public private(set) var hardPeaks: [Double] = []
    /// Contacts down: the step each began in, and its peak so far.
    private var open: [Int: (step: Step, peak: Double)] = [:]

    /// Nil for a device without a pressure axis or with a target below one.
    public init?(device: InputDevice, ordinary: Int, hard: Int) {
        guard device.pressure != nil, ordinary >= 1, hard >= 1 else { return nil }
        self.device = device
        self.targets = (ordinary, hard)
    }

    /// The force of `contact` right now, for the live ring; nil when it is not down.
    public func force(of event: ContactEvent) -> Double? {
        event.pressure.flatMap { device.pressure?.normalize($0) }
    }

    /// Takes one of the device's contact events (others are ignored).
    public mutating func handle(_ event: ContactEvent) -> [Event] {
        guard event.device == device.id else { return [] }
        let force = self.force(of: event) ?? 0
        switch (event.phase, open[event.contact]) {
        case (.begin, _):
            // A contact the session takes only while a step runs; a second begin starts afresh.
            open[event.contact] = step == .done ? nil : (step, force)
            return []
        case (.move, let contact?):
            open[event.contact] = (contact.step, max(contact.peak, force))
            return []
        case (.end, let contact?):
            open[event.contact] = nil
            return record(max(contact.peak, force), in: contact.step)
        case (.cancel, _?):
            open[event.contact] = nil
            return []
        case (.move, nil), (.end, nil), (.cancel, nil), (.hover, _):
            // A contact that began before the session, or hovering: nothing to measure.
            return []
        }
    }

    /// The person says the current step is done (they pressed Enter).
    public mutating func finishStep() -> [Event] {
        switch step {
        case .ordinary where ordinaryPeaks.isEmpty, .hard where hardPeaks.isEmpty:
            return [.stillEmpty(step)]
        case .ordinary, .hard:
            return advance()
        case .done:
            return []
        }
    }

    /// The suggestion from the two groups; nil until both have a contact.
    public var suggestion: ThresholdSuggestion? {
        ThresholdSuggestion(ordinaryPeaks: ordinaryPeaks, hardPeaks: hardPeaks)
    }

    private mutating func record(_ peak: Double, in contactStep: Step) -> [Event] {
        switch contactStep {
        case .ordinary:
            ordinaryPeaks.append(peak)
            let measured = Event.measured(.ordinary, count: ordinaryPeaks.count, target: targets.ordinary, peak: peak)
            // A contact that began in a step already over still counts for it, but moves nothing on.
            return step == .ordinary && ordinaryPeaks.count >= targets.ordinary ? [measured] + advance() : [measured]
        case .hard:
            hardPeaks.append(peak)
            let measured = Event.measured(.hard, count: hardPeaks.count, target: targets.hard, peak: peak)
            return step == .hard && hardPeaks.count >= targets.hard ? [measured] + advance() : [measured]
        case .done:
            return []
        }
    }

    private mutating func advance() -> [Event] {
        let finished = step
        switch step {
        case .ordinary: step = .hard
        case .hard: step = .done
        case .done: return []
        }
        return [.finished(finished)]
    }
}
