/// What the X server did with held input, as `run --json` prints it (docs/trace-format.md): a
/// line with an `ownership` key and no `t`, its other keys as the kind has them.
public struct OwnershipLine: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, Hashable {
        case holding
        case cannotHold = "cannot-hold"
        case kept
        case replayed
        case letGo = "let-go"
        case cannotDetach = "cannot-detach"
        case deferred
        case gone
        case bug
    }

    /// Which held input: pen and mouse presses, or touches.
    public enum Input: String, Codable, Sendable, Hashable {
        case press
        case touch
    }

    public var ownership: Kind
    public var input: Input?
    public var device: Int?
    public var contact: Int?
    /// The binding whose gesture kept it (`kept`).
    public var winner: String?
    /// How many contacts were let go of (`let-go`).
    public var count: Int?
    /// A release reason's word (`replayed`), or why everything was let go of, in words (`let-go`).
    public var reason: String?
    /// Seconds from the touch-down; left out when the beginning was not seen.
    public var held: Double?
    /// The grab's status (`cannot-detach`).
    public var status: Int?
    /// What went wrong (`bug`).
    public var message: String?

    public init(_ ownership: Kind, input: Input? = nil, device: Int? = nil, contact: Int? = nil, winner: String? = nil,
                count: Int? = nil, reason: String? = nil, held: Double? = nil, status: Int? = nil, message: String? = nil) {
        self.ownership = ownership
        self.input = input
        self.device = device
        self.contact = contact
        self.winner = winner
        self.count = count
        self.reason = reason
        self.held = held
        self.status = status
        self.message = message
    }

    private enum CodingKeys: String, CodingKey {
        case ownership, input, device, contact, winner, count, reason, held, status, message
    }

    /// The keys each kind has besides `ownership` (`held` may be left out: a beginning not seen).
    private static func requiredKeys(of kind: Kind) -> [CodingKeys] {
        switch kind {
        case .holding, .cannotHold: [.input]
        case .kept: [.input, .device, .contact, .winner]
        case .replayed: [.input, .device, .contact, .reason]
        case .letGo: [.input, .count, .reason]
        case .cannotDetach: [.device, .status]
        case .deferred, .gone: [.input, .device, .contact]
        case .bug: [.message]
        }
    }

    // Read strictly: a key its kind has, renamed or missing, fails to decode.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        ownership = try container.decode(Kind.self, forKey: .ownership)
        for key in Self.requiredKeys(of: ownership) where !container.contains(key) {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: container.codingPath, debugDescription: "an ownership line of kind \(ownership.rawValue) has \(key.stringValue)"))
        }
        input = try container.decodeIfPresent(Input.self, forKey: .input)
        device = try container.decodeIfPresent(Int.self, forKey: .device)
        contact = try container.decodeIfPresent(Int.self, forKey: .contact)
        winner = try container.decodeIfPresent(String.self, forKey: .winner)
        count = try container.decodeIfPresent(Int.self, forKey: .count)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        held = try container.decodeIfPresent(Double.self, forKey: .held)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        message = try container.decodeIfPresent(String.self, forKey: .message)
    }
}
