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
}
