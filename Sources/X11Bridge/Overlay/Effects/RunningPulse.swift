import GestureKit

/// A pulse on screen: where, since when, how it animates and in which colour (the look where
/// it began), in which window, and when its next frame is due.
struct RunningPulse {
    let center: Point
    let start: Double
    let animation: PulseAnimation
    let color: OverlayColor
    let window: OverlayWindow
    var nextFrame: Double

    static func shapes(of frame: PulseAnimation.Frame, around center: Point, color: OverlayColor) -> [OverlayShape] {
        [.ring(center: center, radius: frame.radius, lineWidth: frame.lineWidth, color: color.fading(to: frame.opacity))]
    }
}
