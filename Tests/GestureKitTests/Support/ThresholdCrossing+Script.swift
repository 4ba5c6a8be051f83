@testable import GestureKit

/// Crossings as a script writes them: `.up(0)`, `.down(2)`.
extension ThresholdCrossing {
    static func up(_ index: Int) -> ThresholdCrossing { ThresholdCrossing(index: index, direction: .up) }
    static func down(_ index: Int) -> ThresholdCrossing { ThresholdCrossing(index: index, direction: .down) }
}
