/// The states a recognizer reports, as UIKit names them.
///
/// Continuous recognizers go `began → changed* → ended | cancelled`; discrete ones are
/// `recognized` or `failed`. A continuous recognizer that gives up before it began also
/// reports `failed` (or `cancelled` for a deep press that moved too far, as the config
/// reference explains).
public enum GestureState: String, Sendable, Hashable, CaseIterable {
    case began
    case changed
    case ended
    case cancelled
    case recognized
    case failed

    /// A state after which the recognizer says nothing more about the contact.
    public var isFinal: Bool {
        switch self {
        case .ended, .cancelled, .recognized, .failed: return true
        case .began, .changed: return false
        }
    }

    /// A state in which the gesture has been seen: it wins the contact.
    public var isSuccess: Bool {
        switch self {
        case .began, .recognized: return true
        case .changed, .ended, .cancelled, .failed: return false
        }
    }
}

/// Which way the force passed a threshold.
public enum CrossingDirection: String, Sendable, Hashable {
    case up
    case down
}

/// One threshold reached or crossed: its index among the sorted thresholds, and the direction.
public struct ThresholdCrossing: Sendable, Hashable {
    public var index: Int
    public var direction: CrossingDirection
}

/// Rotation around a knob's center.
public struct KnobReading: Sendable, Hashable {
    /// Radians in [0, 2π), 0 at 3 o'clock, growing clockwise on screen.
    public var angle: Double
    /// Signed change since the previous report, in (-π, π], positive clockwise.
    public var rotation: Double
    /// Pixels from the center.
    public var distance: Double
}

/// What a recognizer reports when it changes state or its value changes.
public struct GestureReport: Sendable, Hashable {
    public var state: GestureState
    public var time: Double
    public var position: Point
    public var force: Double?
    public var crossing: ThresholdCrossing?
    public var knob: KnobReading?

    public init(state: GestureState, time: Double, position: Point, force: Double? = nil,
                crossing: ThresholdCrossing? = nil, knob: KnobReading? = nil) {
        self.state = state
        self.time = time
        self.position = position
        self.force = force
        self.crossing = crossing
        self.knob = knob
    }
}

/// What one input did to a recognizer: the reports it made, and a bug note when the
/// input made no sense in the recognizer's state (it is logged, never silently dropped).
public struct RecognizerStep: Sendable, Hashable {
    public var reports: [GestureReport]
    public var bug: String?

    public init(reports: [GestureReport] = [], bug: String? = nil) {
        self.reports = reports
        self.bug = bug
    }

    public static let nothing = RecognizerStep()

    static func report(_ report: GestureReport) -> RecognizerStep {
        RecognizerStep(reports: [report])
    }

    static func impossible(_ what: String) -> RecognizerStep {
        RecognizerStep(bug: what)
    }

    /// The bug note of `kind` for an input its state cannot take, in the words every recognizer
    /// uses: a down while a contact is already down, a move, lift or cancel before any down, a
    /// timeout it never asked for.
    static func unexpected(_ input: RecognizerInput, to kind: RecognizerKind) -> RecognizerStep {
        switch input {
        case .down: return .impossible("\(kind.rawValue): a second down on the same contact")
        case .move, .up, .cancel: return .impossible("\(kind.rawValue): contact event before the contact went down")
        case .timeout: return .impossible("\(kind.rawValue): timeout without a deadline")
        }
    }
}

extension GestureReport {
    /// A report at `sample`'s time and place, with the force it read.
    init(_ state: GestureState, at sample: ContactSample) {
        self.init(state: state, time: sample.time, position: sample.position, force: sample.force)
    }

    /// A report at `sample`'s time and place, with `force` (nil: none).
    init(_ state: GestureState, at sample: ContactSample, force: Double?) {
        self.init(state: state, time: sample.time, position: sample.position, force: force)
    }
}
