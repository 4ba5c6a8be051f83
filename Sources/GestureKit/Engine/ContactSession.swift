/// One binding's recognizer watching one contact.
struct RecognizerSlot: Sendable {
    let binding: Binding
    var recognizer: any GestureRecognizer
    /// False once the recognizer reported a final state or lost the contact.
    var active = true
    var began = false
    /// Knob degrees or force carried toward the next step action.
    var carried = 0.0
    var lastForce: Double?
    /// The last progress fraction shown for `ring` feedback, so unchanged values are not resent.
    var shownProgress: Double?

    init(binding: Binding, screen: ScreenSize) {
        self.binding = binding
        self.recognizer = binding.recognizer.makeRecognizer(screen: screen)
    }

    var owns: Bool { binding.ownsContact }

    /// A pressure gesture that holds the contact while its force may still reach the
    /// threshold (`HoldPolicy`), with the force an ordinary touch reaches.
    var followsForce: Bool { active && owns && ordinaryForce != nil }

    var ordinaryForce: Double? {
        switch binding.recognizer {
        case .deepPress(let configuration): return configuration.ordinary
        case .squeeze(let configuration): return configuration.ordinary
        case .force, .pressureThresholds, .knob, .longPress: return nil
        }
    }
}

/// Everything the engine knows about one contact while it is down.
struct ContactSession: Sendable {
    let key: ContactKey
    let device: InputDevice
    var slots: [RecognizerSlot]
    /// When the contact went down.
    let start: Double
    /// When the force-following hold ends, whatever the force: the hold limit of the bindings
    /// the contact began with, from touch-down.
    var holdEnd: Double = .infinity
    /// Claimed by an owning gesture, or released to applications; nil while undecided.
    var decided = false
    /// The force's recent course, while a pressure gesture holds the undecided contact.
    var trend: ForceTrend?

    var hasActiveOwner: Bool { slots.contains { $0.active && $0.owns } }

    /// The lowest `ordinary` of the pressure gestures still holding the contact; nil when none is.
    var ordinaryForce: Double? { slots.filter(\.followsForce).compactMap(\.ordinaryForce).min() }
}

/// What a timer in the engine's queue is for.
enum EngineTimer: Hashable, Sendable {
    case recognizer(ContactKey, slot: Int)
    case decision(ContactKey)
    /// The force-following hold's next look at a contact whose samples stopped, or its limit.
    case hold(ContactKey)

    var contact: ContactKey {
        switch self {
        case .recognizer(let key, _): return key
        case .decision(let key): return key
        case .hold(let key): return key
        }
    }
}
