import GestureKit

/// How close a contact's force is to its binding's threshold: an arc that fills clockwise
/// from 12 o'clock over a faint full circle; the circle closes when the threshold is reached.
struct ProgressRing: Sendable, Hashable {
    static let radius = 28.0
    static let lineWidth = 5.0
    static let trackWidth = 3.0
    /// Half the window's side: the ring and its round line caps, with a pixel to spare.
    static let extent = Int((radius + lineWidth / 2).rounded(.up)) + 3

    var center: Point
    /// 0...1 of the way to the threshold.
    var fraction: Double

    init(center: Point, fraction: Double) {
        self.center = center
        self.fraction = fraction.isFinite ? min(max(fraction, 0), 1) : 0
    }

    var shapes: [OverlayShape] {
        [
            .ring(center: center, radius: Self.radius, lineWidth: Self.trackWidth, color: OverlayPalette.progressTrack),
            .arc(center: center, radius: Self.radius, lineWidth: Self.lineWidth, start: 0, sweep: fraction,
                 color: OverlayPalette.progress),
        ]
    }
}
