/// The recognizers GestureBridge has, by the name a config uses.
public enum RecognizerKind: String, Sendable, Hashable, CaseIterable {
    case force
    case deepPress = "deep-press"
    case squeeze
    case pressureThresholds = "pressure-thresholds"
    case knob
    case longPress = "long-press"

    /// Recognizers that read force can only serve devices with a pressure axis.
    public var needsPressure: Bool {
        switch self {
        case .force, .deepPress, .squeeze, .pressureThresholds: return true
        case .knob, .longPress: return false
        }
    }

    /// Whether the gesture waits for one level (a force, a duration) on any contact, so that of
    /// two such bindings on one device the lower level always wins: a binding naming the device
    /// takes it from those matching it by kind (`BindingSet.bindings(for:in:)`).
    public var waitsForALevel: Bool {
        switch self {
        case .deepPress, .squeeze, .longPress: return true
        case .force, .pressureThresholds, .knob: return false
        }
    }

    /// Whether a binding of this kind owns the contacts it recognizes unless told otherwise.
    public var ownsContactByDefault: Bool {
        switch self {
        case .deepPress, .squeeze, .knob, .longPress: return true
        case .force, .pressureThresholds: return false
        }
    }
}

/// A recognizer of one contact. Each contact gets a fresh copy of the binding's
/// recognizer, so a value type's initial state is its reset.
public protocol GestureRecognizer: Sendable {
    /// A deadline (engine seconds) at which the recognizer wants a `.timeout`, if any.
    var deadline: Double? { get }
    /// Handles one input; the switch over (state, input) is exhaustive in each recognizer.
    mutating func handle(_ input: RecognizerInput) -> RecognizerStep
}

extension GestureRecognizer {
    /// A recognizer with no timers never asks for a `.timeout`.
    public var deadline: Double? { nil }
}
