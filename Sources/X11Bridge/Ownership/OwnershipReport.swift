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
    /// Another client holds the grab: a deep press may also reach the application.
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
        case .cannotHold(.press): return "cannot grab button 1 (another client holds it): a deep press may also click"
        case .cannotHold(.touch):
            return "cannot grab touches (another client holds the touch grab): a deep press may also touch the application"
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
    public var json: String {
        var line = JSONLine()
        func add(_ input: Input) { line.add("input", input == .press ? "press" : "touch") }
        func add(_ key: ContactKey) {
            line.add("device", key.device)
            line.add("contact", key.contact)
        }
        switch self {
        case .holding(let input):
            line.add("ownership", "holding")
            add(input)
        case .cannotHold(let input):
            line.add("ownership", "cannot-hold")
            add(input)
        case .kept(let key, let input, let gesture, let held):
            line.add("ownership", "kept")
            add(input)
            add(key)
            line.add("winner", gesture)
            if let held { line.add("held", held) }
        case .replayed(let key, let input, let reason, let held):
            line.add("ownership", "replayed")
            add(input)
            add(key)
            line.add("reason", reason.code)
            if let held { line.add("held", held) }
        case .letGo(let input, let count, let reason):
            line.add("ownership", "let-go")
            add(input)
            line.add("count", count)
            line.add("reason", reason)
        case .cannotDetach(let device, let status):
            line.add("ownership", "cannot-detach")
            line.add("device", device)
            line.add("status", Int(status))
        case .touchChoiceDeferred(let key):
            line.add("ownership", "deferred")
            add(.touch)
            add(key)
        case .touchGone(let key):
            line.add("ownership", "gone")
            add(.touch)
            add(key)
        case .bug(let message):
            line.add("ownership", "bug")
            line.add("message", message)
        }
        return line.string
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
