import Testing
@testable import GestureKit

/// Expects a sequence of events to be exactly `expected`; a failure names the first event
/// that differs, and shows the whole sequence that happened.
func expectSequence<Element: Equatable>(_ actual: [Element], _ expected: [Element],
                                        sourceLocation: SourceLocation = #_sourceLocation) {
    guard actual != expected else { return }
    let shared = min(actual.count, expected.count)
    let index = (0..<shared).first { actual[$0] != expected[$0] } ?? shared
    let wanted = index < expected.count ? describe(expected[index]) : "nothing more"
    let got = index < actual.count ? describe(actual[index]) : "nothing more"
    let whole = actual.isEmpty ? "nothing" : actual.map(describe).joined(separator: ", ")
    Issue.record("""
        event \(index + 1) differs: expected \(wanted), got \(got)
          what happened: \(whole)
        """, sourceLocation: sourceLocation)
}

private func describe<Element>(_ element: Element) -> String {
    switch element {
    case let output as EngineOutput: return describe(output)
    case let event as GestureEvent: return describe(event)
    case let crossing as ThresholdCrossing: return "\(crossing.direction.rawValue) \(crossing.index)"
    case let point as Point: return point.scriptDescription
    case let decision as ContactDecision:
        return "\(ScriptDecision(decision)) at \(decision.time.formatted) (device \(decision.key.device) contact \(decision.key.contact))"
    case let number as Double: return number.formatted
    default: return String(describing: element)
    }
}

private func describe(_ event: GestureEvent) -> String {
    let report = event.report
    var text = "\(event.gesture) \(report.state.rawValue) at \(report.time.formatted) \(report.position.scriptDescription)"
    if let force = report.force { text += " force \(force.formatted)" }
    if let crossing = report.crossing { text += " \(describe(crossing))" }
    if let knob = report.knob { text += " rotation \(knob.rotation.formatted)" }
    return text
}

private func describe(_ output: EngineOutput) -> String {
    switch output {
    case .gesture(let event): return describe(event)
    case .action(let event): return "\(event.gesture): \(PlacedAction(event)) at \(event.time.formatted)"
    case .feedback(let feedback): return ScriptFeedback(feedback).description
    case .decision(let decision): return describe(decision)
    case .learned(let change): return "learned \(change.device): threshold \(change.levels.threshold.formatted)"
    case .bug(let text): return "bug: \(text)"
    }
}
