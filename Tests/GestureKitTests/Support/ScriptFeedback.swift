@testable import GestureKit

/// What the overlay would draw, without the contact bookkeeping.
enum ScriptFeedback: Hashable, CustomStringConvertible {
    case pulse(Point)
    case progress(Double)
    case progressEnded

    static func pulse(at spot: Spot) -> ScriptFeedback { .pulse(Point(spot)) }

    init(_ feedback: Feedback) {
        switch feedback {
        case .pulse(_, let point, _): self = .pulse(point)
        case .progress(_, _, let fraction): self = .progress(fraction)
        case .progressEnded: self = .progressEnded
        }
    }

    var description: String {
        switch self {
        case .pulse(let point): return "pulse at \(point.scriptDescription)"
        case .progress(let fraction): return "progress \(fraction.formatted)"
        case .progressEnded: return "progress ended"
        }
    }
}
