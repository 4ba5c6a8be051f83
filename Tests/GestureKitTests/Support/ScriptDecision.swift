@testable import GestureKit

/// An ownership decision without its bookkeeping: who kept the contact, or why it went to
/// the application.
enum ScriptDecision: Hashable, CustomStringConvertible {
    case claimed(by: String)
    case released(ReleaseReason)

    init(_ decision: ContactDecision) {
        switch decision {
        case .claim(_, let gesture, _, _): self = .claimed(by: gesture)
        case .release(_, let reason, _, _): self = .released(reason)
        }
    }

    var description: String {
        switch self {
        case .claimed(let gesture): return "claimed by \(gesture)"
        case .released(let reason): return "released (\(reason.rawValue))"
        }
    }
}
