import GestureKit

/// How close a contact's force is to its binding's threshold: an arc that fills clockwise
/// from 12 o'clock over a faint full circle; the circle closes when the threshold is reached.
struct ProgressRing: Sendable, Hashable {
    /// Sizes at scale 1.
    static let radius = 28.0
    static let lineWidth = 5.0
    static let trackWidth = 3.0
    /// Half the window's side at scale 1: the ring and its round line caps, with a pixel to spare.
    static let extent = halfSize(scale: 1)

    var center: Point
    /// 0...1 of the way to the threshold.
    var fraction: Double
    var style = OverlayStyle.standard

    init(center: Point, fraction: Double, style: OverlayStyle = .standard) {
        self.center = center
        self.fraction = fraction.isFinite ? min(max(fraction, 0), 1) : 0
        self.style = style
    }

    static func halfSize(scale: Double) -> Int {
        Int(((radius + lineWidth / 2) * scale).rounded(.up)) + 3
    }

    var halfSize: Int { Self.halfSize(scale: style.scale) }

    var shapes: [OverlayShape] {
        let scale = style.scale
        return [
            .ring(center: center, radius: Self.radius * scale, lineWidth: Self.trackWidth * scale,
                  color: OverlayPalette.progressTrack),
            .arc(center: center, radius: Self.radius * scale, lineWidth: Self.lineWidth * scale, start: 0, sweep: fraction,
                 color: style.accent),
        ]
    }
}
