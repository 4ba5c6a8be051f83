/// Any line `replay --json` or `run --json` prints, told apart by the key only its kind has
/// (docs/trace-format.md): what a tool or a test decodes each line into.
public enum OutputLine: Codable, Sendable, Hashable {
    case gesture(GestureLine)
    case action(ActionLine)
    case decision(DecisionLine)
    case learned(LearnedLine)
    case ownership(OwnershipLine)
    case event(RunEventLine)

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func has(_ key: String) -> Bool { container.contains(Key(stringValue: key)) }
        // A gesture line has `recognizer`; `action-failed` events also have an action's keys,
        // and a learned line has `threshold` as gesture lines may: the distinctive keys first.
        if has("event") {
            self = .event(try RunEventLine(from: decoder))
        } else if has("ownership") {
            self = .ownership(try OwnershipLine(from: decoder))
        } else if has("decision") {
            self = .decision(try DecisionLine(from: decoder))
        } else if has("learned") {
            self = .learned(try LearnedLine(from: decoder))
        } else if has("action") {
            self = .action(try ActionLine(from: decoder))
        } else if has("recognizer") {
            self = .gesture(try GestureLine(from: decoder))
        } else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "no output line has these keys: \(container.allKeys.map(\.stringValue))"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .gesture(let line): try line.encode(to: encoder)
        case .action(let line): try line.encode(to: encoder)
        case .decision(let line): try line.encode(to: encoder)
        case .learned(let line): try line.encode(to: encoder)
        case .ownership(let line): try line.encode(to: encoder)
        case .event(let line): try line.encode(to: encoder)
        }
    }

    public var gesture: GestureLine? { if case .gesture(let line) = self { line } else { nil } }
    public var action: ActionLine? { if case .action(let line) = self { line } else { nil } }
    public var decision: DecisionLine? { if case .decision(let line) = self { line } else { nil } }
    public var learned: LearnedLine? { if case .learned(let line) = self { line } else { nil } }
    public var ownership: OwnershipLine? { if case .ownership(let line) = self { line } else { nil } }
    public var event: RunEventLine? { if case .event(let line) = self { line } else { nil } }
}

extension [OutputLine] {
    /// The lines of each kind, in order.
    public var gestures: [GestureLine] { compactMap(\.gesture) }
    public var actions: [ActionLine] { compactMap(\.action) }
    public var decisions: [DecisionLine] { compactMap(\.decision) }
    public var ownerships: [OwnershipLine] { compactMap(\.ownership) }

    /// The bridge's own events of one kind, in order.
    public func events(_ kind: RunEventLine.Event) -> [RunEventLine] {
        compactMap(\.event).filter { $0.event == kind }
    }
}
