@testable import GestureKit

extension RecognizerSettings {
    /// Each recognizer with its defaults; the knob's ring is drawn around (100, 150) so a
    /// contact at (100, 100) lands on it.
    static func standard(_ kind: RecognizerKind) -> RecognizerSettings {
        switch kind {
        case .force: return .force(.init())
        case .deepPress: return .deepPress(.init())
        case .squeeze: return .squeeze(.init())
        case .pressureThresholds: return .pressureThresholds(.init(thresholds: [0.25, 0.5, 0.75]))
        case .knob:
            return .knob(KnobSettings(centerX: ScreenCoordinate(100), centerY: ScreenCoordinate(150),
                                      innerRadius: 10, outerRadius: 100))
        case .longPress: return .longPress(.init())
        }
    }
}
