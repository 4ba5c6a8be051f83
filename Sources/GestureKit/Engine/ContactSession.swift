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
}

/// Everything the engine knows about one contact while it is down.
struct ContactSession: Sendable {
    let key: ContactKey
    let device: InputDevice
    var slots: [RecognizerSlot]
    /// Claimed by an owning gesture, or released to applications; nil while undecided.
    var decided = false

    var hasActiveOwner: Bool { slots.contains { $0.active && $0.owns } }
}

/// What a timer in the engine's queue is for.
enum EngineTimer: Hashable, Sendable {
    case recognizer(ContactKey, slot: Int)
    case decision(ContactKey)

    var contact: ContactKey {
        switch self {
        case .recognizer(let key, _): return key
        case .decision(let key): return key
        }
    }
}
