/// The `--json` lines of the engine's outputs (docs/trace-format.md): gestures, actions,
/// decisions and learned levels, as `replay --json` and `run --json` print them. Each encodes
/// itself in the contract's key order (`JSONLineEncoder`), and reads itself back, so a test
/// or a tool holds the output to these types.

/// A recognizer's report: `{"t","gesture","recognizer","state","device","contact","x","y",…}`
/// with `force`, `threshold` and `direction`, `angle`, `rotation` and `distance` where the
/// recognizer has them.
public struct GestureLine: Codable, Sendable, Hashable {
    public var t: Double
    public var gesture: String
    public var recognizer: RecognizerKind
    public var state: GestureState
    public var device: Int
    public var contact: Int
    public var x: Double
    public var y: Double
    public var force: Double?
    /// Index into the binding's sorted thresholds, with `direction`.
    public var threshold: Int?
    public var direction: CrossingDirection?
    public var angle: Double?
    public var rotation: Double?
    public var distance: Double?

    public init(_ event: GestureEvent) {
        let report = event.report
        t = report.time
        gesture = event.gesture
        recognizer = event.recognizer
        state = report.state
        device = event.device
        contact = event.contact
        x = report.position.x
        y = report.position.y
        force = report.force
        threshold = report.crossing?.index
        direction = report.crossing?.direction
        angle = report.knob?.angle
        rotation = report.knob?.rotation
        distance = report.knob?.distance
    }
}

/// What an action does, as its line says it: `button`; `direction` and `steps`; `keys`; `argv`;
/// or `change`. Part of an action line and of `run --json`'s `action-failed` event.
public struct ActionFields: Codable, Sendable, Hashable {
    public var button: Int?
    public var direction: String?
    public var steps: Int?
    public var keys: String?
    public var argv: [String]?
    public var change: String?

    public init(_ action: Action) {
        switch action {
        case .click(let button), .press(let button), .release(let button):
            self.button = button
        case .scroll(let direction, let steps):
            self.direction = direction.rawValue
            self.steps = steps
        case .key(let combo):
            keys = combo.description
        case .command(let argv):
            self.argv = argv
        case .volume(let change):
            self.change = change.description
        }
    }

    /// The fields of an action of `kind` (`click`, `scroll`...), read strictly: a key the kind
    /// has, renamed or missing, fails to decode.
    public static func decode(from decoder: any Decoder, kind: String) throws -> ActionFields {
        let fields = try ActionFields(from: decoder)
        let present: [(key: String, isThere: Bool)]
        switch kind {
        case "click", "press", "release": present = [("button", fields.button != nil)]
        case "scroll": present = [("direction", fields.direction != nil), ("steps", fields.steps != nil)]
        case "key": present = [("keys", fields.keys != nil)]
        case "command": present = [("argv", fields.argv != nil)]
        case "volume": present = [("change", fields.change != nil)]
        default:
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath,
                                                                    debugDescription: "no action is called \(kind)"))
        }
        if let missing = present.first(where: { !$0.isThere }) {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "a \(kind) action has \(missing.key)"))
        }
        return fields
    }
}

/// An action a binding fired: `{"t","gesture","device","contact","action",…its fields…,"x","y"}`.
public struct ActionLine: Codable, Sendable, Hashable {
    public var t: Double
    public var gesture: String
    public var device: Int
    public var contact: Int
    /// `click`, `press`, `release`, `scroll`, `key`, `command` or `volume`.
    public var action: String
    public var fields: ActionFields
    public var x: Double
    public var y: Double

    public init(_ event: ActionEvent) {
        t = event.time
        gesture = event.gesture
        device = event.contact.device
        contact = event.contact.contact
        action = event.action.name
        fields = ActionFields(event.action)
        x = event.position.x
        y = event.position.y
    }

    private enum CodingKeys: String, CodingKey {
        case t, gesture, device, contact, action, x, y
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(t, forKey: .t)
        try container.encode(gesture, forKey: .gesture)
        try container.encode(device, forKey: .device)
        try container.encode(contact, forKey: .contact)
        try container.encode(action, forKey: .action)
        // The action's own keys, in the same object between `action` and `x`.
        try fields.encode(to: encoder)
        try container.encode(x, forKey: .x)
        try container.encode(y, forKey: .y)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        t = try container.decode(Double.self, forKey: .t)
        gesture = try container.decode(String.self, forKey: .gesture)
        device = try container.decode(Int.self, forKey: .device)
        contact = try container.decode(Int.self, forKey: .contact)
        action = try container.decode(String.self, forKey: .action)
        fields = try ActionFields.decode(from: decoder, kind: action)
        x = try container.decode(Double.self, forKey: .x)
        y = try container.decode(Double.self, forKey: .y)
    }
}

/// A held contact's decision: `{"t","decision":"claim","winner",…}` or
/// `{"t","decision":"release","reason",…}`, then `device`, `contact` and `held`.
public struct DecisionLine: Codable, Sendable, Hashable {
    public enum Decision: String, Codable, Sendable, Hashable {
        case claim
        case release
    }

    public var t: Double
    public var decision: Decision
    /// The binding whose gesture kept the contact (claims only).
    public var winner: String?
    /// Why the contact was handed over (releases only).
    public var reason: ReleaseReason?
    public var device: Int
    public var contact: Int
    /// Seconds from the touch-down to the decision.
    public var held: Double

    public init(_ decision: ContactDecision) {
        t = decision.time
        switch decision {
        case .claim(_, let gesture, _, _):
            self.decision = .claim
            winner = gesture
        case .release(_, let reason, _, _):
            self.decision = .release
            self.reason = reason
        }
        device = decision.key.device
        contact = decision.key.contact
        held = decision.held
    }
}

/// A change of a device's learned deep-press levels:
/// `{"t","learned","threshold","release","ordinary","previous":{…},"ordinary-contacts","deliberate-presses"}`.
public struct LearnedLine: Codable, Sendable, Hashable {
    public var t: Double
    /// The device's name.
    public var learned: String
    public var levels: PressLevels
    public var previous: PressLevels
    public var ordinaryContacts: Int
    public var deliberatePresses: Int

    public init(_ change: LearnedChange) {
        t = change.time
        learned = change.device
        levels = change.levels
        previous = change.previous
        ordinaryContacts = change.ordinaryContacts
        deliberatePresses = change.deliberatePresses
    }

    private enum CodingKeys: String, CodingKey {
        case t, learned, previous
        case ordinaryContacts = "ordinary-contacts"
        case deliberatePresses = "deliberate-presses"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(t, forKey: .t)
        try container.encode(learned, forKey: .learned)
        // The new levels at the top level, beside the device's name.
        try levels.encode(to: encoder)
        try container.encode(previous, forKey: .previous)
        try container.encode(ordinaryContacts, forKey: .ordinaryContacts)
        try container.encode(deliberatePresses, forKey: .deliberatePresses)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        t = try container.decode(Double.self, forKey: .t)
        learned = try container.decode(String.self, forKey: .learned)
        levels = try PressLevels(from: decoder)
        previous = try container.decode(PressLevels.self, forKey: .previous)
        ordinaryContacts = try container.decode(Int.self, forKey: .ordinaryContacts)
        deliberatePresses = try container.decode(Int.self, forKey: .deliberatePresses)
    }
}

// The engine's vocabularies, written as the contract spells them.
extension RecognizerKind: Codable {}
extension GestureState: Codable {}
extension CrossingDirection: Codable {}

extension ReleaseReason: Codable {
    /// Its word in the lines (`code`), not its description.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let code = try container.decode(String.self)
        guard let reason = Self.allCases.first(where: { $0.code == code }) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "no release reason is called \(code)")
        }
        self = reason
    }
}
