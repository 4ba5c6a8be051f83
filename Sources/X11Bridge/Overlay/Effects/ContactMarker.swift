import GestureKit

/// One active pen or touch contact in the touch view: a circle that grows with the force,
/// labelled with the force above it, where a finger does not hide it.
struct ContactMarker: Sendable, Hashable {
    /// Sizes at scale 1. The circle of a contact without pressure, or at zero force.
    static let baseRadius = 14.0
    /// How much full force adds to the radius.
    static let forceRadius = 34.0
    static let lineWidth = 2.0
    static let labelGap = 10.0
    /// The force label's height: large enough to read at arm's length.
    static let labelSize = 15.0
    /// Half the window's side at scale 1.
    static let extent = halfSize(scale: 1)

    var center: Point
    /// Normalized force, nil for a device without pressure.
    var force: Double?
    var scale = 1.0
    /// The label under the circle, not above it: a contact near the top of its monitor (a
    /// browser's tabs), whose label above would be cut off. Found in review of a screencast.
    var labelBelow = false

    /// `visibleTop`: the top of the area the marker is shown in (its monitor's).
    init(center: Point, force: Double?, scale: Double = 1, visibleTop: Double = -.infinity) {
        self.center = center
        self.force = force.map { $0.isFinite ? min(max($0, 0), 1) : 0 }
        self.scale = scale
        labelBelow = self.force != nil && center.y - radius - (Self.labelGap + Self.labelSize) * scale < visibleTop
    }

    /// The largest circle, the gap and the label's height above it, with pixels to spare.
    static func halfSize(scale: Double) -> Int {
        Int(((baseRadius + forceRadius + lineWidth + labelGap + labelSize) * scale).rounded(.up)) + 2
    }

    var halfSize: Int { Self.halfSize(scale: scale) }

    var radius: Double { (Self.baseRadius + Self.forceRadius * (force ?? 0)) * scale }

    /// The force with two decimals ("0.62"), as the force visualizer this view follows shows it.
    var label: String? {
        guard let force else { return nil }
        let hundredths = Int((force * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    var shapes: [OverlayShape] {
        var shapes: [OverlayShape] = [
            // Inside the outline, so no fill pixel can poke out past it.
            .disc(center: center, radius: radius - Self.lineWidth * scale, color: OverlayPalette.contactFill),
            .ring(center: center, radius: radius, lineWidth: Self.lineWidth * scale, color: OverlayPalette.contact),
        ]
        if let label {
            let offset = radius + Self.labelGap * scale
            let place = Point(x: center.x, y: labelBelow ? center.y + offset : center.y - offset)
            shapes.append(.label(label, center: place, size: Self.labelSize * scale, color: OverlayPalette.contact))
        }
        return shapes
    }
}
