/// A recognizer's report, with which binding and contact it belongs to. Only the engine makes one.
public struct GestureEvent: Sendable, Hashable {
    public var gesture: String
    public var recognizer: RecognizerKind
    public var device: Int
    public var contact: Int
    public var report: GestureReport
}

/// An action a binding fired: which binding (`gesture`, its name), on which contact, where.
public struct ActionEvent: Sendable, Hashable {
    public var time: Double
    public var gesture: String
    public var contact: ContactKey
    public var action: Action
    public var position: Point

    public init(time: Double, gesture: String, contact: ContactKey, action: Action, position: Point) {
        self.time = time
        self.gesture = gesture
        self.contact = contact
        self.action = action
        self.position = position
    }
}

/// A contact that is down, as the engine last saw it (only the engine makes one).
public struct ActiveContact: Sendable, Hashable {
    public var key: ContactKey
    public var position: Point
    /// 0...1 of the device's pressure range; nil for a device without pressure.
    public var force: Double?
}

/// What the overlay should show.
public enum Feedback: Sendable, Hashable {
    /// A gesture of the contact began or was recognized here: draw the pulse.
    case pulse(ContactKey, at: Point, time: Double)
    /// The force is `fraction` of the way to a binding's threshold.
    case progress(ContactKey, at: Point, fraction: Double)
    /// The contact no longer approaches a threshold: hide its ring.
    case progressEnded(ContactKey)
}

/// Whether the bridge keeps a contact's input (a gesture of an owning binding won it) or
/// gives it to the application (no owning gesture can win it any more), when, and how long
/// the contact was held back before (seconds from its touch-down).
public enum ContactDecision: Sendable, Hashable {
    case claim(ContactKey, gesture: String, time: Double, held: Double)
    case release(ContactKey, reason: ReleaseReason, time: Double, held: Double)
}

public enum ReleaseReason: String, Sendable, Hashable, CaseIterable {
    /// No owning binding listens to this device.
    case unbound = "no owning gesture listens"
    /// Every owning gesture failed while the contact was still down (movement past the slop,
    /// outside the knob ring).
    case failed = "no gesture can begin"
    /// The decision timeout passed with no gesture begun, and the force said nothing to hold for.
    case timeout = "decision timeout"
    /// The force levelled off (or eased back) at an ordinary touch's level: no deep press coming.
    case levelledOff = "force levelled off"
    /// The hold limit passed while the force still rose or held above an ordinary touch's.
    case limit = "hold limit"
    /// The contact lifted or was cancelled before anything was decided.
    case ended = "contact ended"
    /// Another button of the device went down while the contact was held (a pen's side
    /// button): the press goes on with it, as without the bridge (`GestureEngine.handOver`).
    case anotherButton = "another button pressed"
    /// Another finger touched the same screen while this one was held, or was on it with the
    /// application: fingers together are a pinch, a scroll or a resting hand, the
    /// application's as without the bridge; the gestures are one finger's.
    case anotherFinger = "another finger touched"
    /// The touch went down, or was held, while the application had the pen's stroke: a hand
    /// resting on the screen as the pen writes (a palm), the application's as without the
    /// bridge.
    case penDown = "touched while the pen was down"
    /// The touch went down while a pen hovered above the screen, or was held when one came to
    /// hover: a hand resting where the pen writes (a palm), held with no gesture until the
    /// decision timeout, its end or a move past its slop (`PalmRule`).
    case penNear = "touched while a pen hovered"
}

extension ReleaseReason {
    /// The reason's word in `replay --json` (docs/trace-format.md).
    public var code: String {
        switch self {
        case .unbound: return "unbound"
        case .failed: return "no-gesture"
        case .timeout: return "timeout"
        case .levelledOff: return "levelled-off"
        case .limit: return "limit"
        case .ended: return "lifted"
        case .anotherButton: return "another-button"
        case .anotherFinger: return "another-finger"
        case .penDown: return "pen-down"
        case .penNear: return "pen-near"
        }
    }
}

extension ContactDecision {
    public var key: ContactKey { shared.key }

    public var time: Double { shared.time }

    /// Seconds from the contact's touch-down to this decision.
    public var held: Double { shared.held }

    /// What a claim and a release both carry.
    private var shared: (key: ContactKey, time: Double, held: Double) {
        switch self {
        case .claim(let key, _, let time, let held), .release(let key, _, let time, let held): return (key, time, held)
        }
    }
}

/// Everything the engine says, in order.
public enum EngineOutput: Sendable, Hashable {
    case gesture(GestureEvent)
    case action(ActionEvent)
    case feedback(Feedback)
    case decision(ContactDecision)
    /// A device's learned deep-press levels moved (`HandLearner`): from its next contact on.
    case learned(LearnedChange)
    /// An impossible transition or input: logged, never silently ignored.
    case bug(String)
}

extension EngineOutput {
    /// The contact the output belongs to; nil for a device's learned levels and a bug.
    public var contact: ContactKey? {
        switch self {
        case .gesture(let event): return ContactKey(device: event.device, contact: event.contact)
        case .action(let event): return event.contact
        case .feedback(.pulse(let key, _, _)), .feedback(.progress(let key, _, _)), .feedback(.progressEnded(let key)):
            return key
        case .decision(let decision): return decision.key
        case .learned, .bug: return nil
        }
    }
}
