import GestureKit

/// Something the overlay draws, in root-window pixels.
enum OverlayShape: Sendable, Hashable {
    /// A stroke along a circle: from `start` turns clockwise past 12 o'clock, over `sweep`
    /// turns (1 is the whole ring).
    case arc(center: Point, radius: Double, lineWidth: Double, start: Double, sweep: Double, color: OverlayColor)
    case disc(center: Point, radius: Double, color: OverlayColor)
    /// A line of text centred on `center`, `size` pixels high.
    case label(String, center: Point, size: Double, color: OverlayColor)

    static func ring(center: Point, radius: Double, lineWidth: Double, color: OverlayColor) -> OverlayShape {
        .arc(center: center, radius: radius, lineWidth: lineWidth, start: 0, sweep: 1, color: color)
    }

    var color: OverlayColor {
        switch self {
        case .arc(_, _, _, _, _, let color), .disc(_, _, let color), .label(_, _, _, let color):
            return color
        }
    }
}
