import GestureKit

/// What became of input the bridge holds back from applications, as the X server carried it
/// out: a value, so the command formats it in one place and tests assert on it.
public enum OwnershipReport: Sendable, Hashable, CustomStringConvertible {
    /// Which held input: pen and mouse presses (a grab of button 1), or touches (touch ownership).
    public enum Input: Sendable, Hashable {
        case press
        case touch
    }

    /// From now on, presses (or touches) wait for a gesture's decision.
    case holding(Input)
    /// Another client holds the grab: its contacts are that client's or the applications', and
    /// no gesture of the bridge's acts on them until it lets go.
    case cannotHold(Input)
    /// A held contact kept for `gesture`: the application never sees it. `held`: seconds,
    /// nil when its beginning was not seen.
    case kept(ContactKey, Input, gesture: String, held: Double?)
    /// A held contact given to the application, the original events replayed.
    case replayed(ContactKey, Input, reason: ReleaseReason, held: Double?)
    /// Everything held let go of at once (`count` contacts), and why.
    case letGo(Input, count: Int, reason: String)
    /// A claimed stroke's device could not be taken off its master.
    case cannotDetach(device: Int, status: Int32)
    /// The server could not take the bridge's choice for a touch yet: its master had switched to
    /// a device without touches (a pen moving at the same moment). It goes again with the
    /// touch's next event on that master (`TouchOwnership`).
    case touchChoiceDeferred(ContactKey)
    /// The server no longer had a touch the bridge chose for (it ended with its device).
    case touchGone(ContactKey)
    /// An ownership step that should not happen; reported, never silent.
    case bug(String)

    public var description: String {
        switch self {
        case .holding(.press): return "holding pen and mouse presses until a gesture decides"
        case .holding(.touch): return "holding touches until a gesture decides"
        case .cannotHold(.press):
            return "cannot grab button 1 (another client holds it, a gesture program or another gesture-bridge): pen and mouse presses are its or the applications', and no press gesture of the bridge's acts until it lets go"
        case .cannotHold(.touch):
            return "cannot grab touches (another client holds the touch grab, a gesture program such as touchegg): the touches are its or the applications', and no touch gesture of the bridge's acts until it lets go"
        case .kept(let key, let input, let gesture, let held):
            return "\(Self.name(key, input)) kept for \(gesture), held \(Self.duration(held))"
        case .replayed(let key, let input, let reason, let held):
            return "\(Self.name(key, input)) replayed to the application (\(reason.rawValue)), held \(Self.duration(held))"
        case .letGo(.press, let count, let reason):
            return "let go of \(count) held stroke\(count == 1 ? "" : "s"): \(reason)"
        case .letGo(.touch, let count, let reason):
            return "let go of \(count) held touch\(count == 1 ? "" : "es"): \(reason)"
        case .cannotDetach(let device, let status):
            return "cannot take device \(device) off its master (grab status \(status)): its lift may reach the application"
        case .touchChoiceDeferred(let key):
            return "\(Self.name(key, .touch)) choice deferred: its master had switched to a device without touches; sent again with its next event"
        case .touchGone(let key):
            return "\(Self.name(key, .touch)) was gone when the bridge's choice arrived"
        case .bug(let message):
            return "bug: \(message)"
        }
    }

    /// The report as one JSON object, for `run --json` (docs/trace-format.md).
    public var json: String { JSONLineEncoder.line(line) }

    /// The report as its `run --json` line.
    public var line: OwnershipLine {
        func input(_ input: Input) -> OwnershipLine.Input { input == .press ? .press : .touch }
        switch self {
        case .holding(let held):
            return OwnershipLine(.holding, input: input(held))
        case .cannotHold(let held):
            return OwnershipLine(.cannotHold, input: input(held))
        case .kept(let key, let held, let gesture, let time):
            return OwnershipLine(.kept, input: input(held), device: key.device, contact: key.contact, winner: gesture, held: time)
        case .replayed(let key, let held, let reason, let time):
            return OwnershipLine(.replayed, input: input(held), device: key.device, contact: key.contact, reason: reason.code,
                                 held: time)
        case .letGo(let held, let count, let reason):
            return OwnershipLine(.letGo, input: input(held), count: count, reason: reason)
        case .cannotDetach(let device, let status):
            return OwnershipLine(.cannotDetach, device: device, status: Int(status))
        case .touchChoiceDeferred(let key):
            return OwnershipLine(.deferred, input: .touch, device: key.device, contact: key.contact)
        case .touchGone(let key):
            return OwnershipLine(.gone, input: .touch, device: key.device, contact: key.contact)
        case .bug(let message):
            return OwnershipLine(.bug, message: message)
        }
    }

    private static func name(_ key: ContactKey, _ input: Input) -> String {
        switch input {
        case .press: return "device \(key.device): press"
        case .touch: return "device \(key.device) touch \(key.contact): touch"
        }
    }

    private static func duration(_ held: Double?) -> String {
        held.map { "\(Int(($0 * 1000).rounded())) ms" } ?? "for an unknown time"
    }
}
