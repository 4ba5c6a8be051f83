import GestureKit

/// One active pen or touch contact in the touch view: a circle that grows with the force,
/// labelled with the force above it, where a finger does not hide it.
struct ContactMarker: Sendable, Hashable {
    /// The circle of a contact without pressure, or at zero force.
    static let baseRadius = 14.0
    /// How much full force adds to the radius.
    static let forceRadius = 34.0
    static let lineWidth = 2.0
    static let labelGap = 10.0
    static let extent = Int(baseRadius + forceRadius + lineWidth + labelGap) + 10

    var center: Point
    /// Normalized force, nil for a device without pressure.
    var force: Double?

    init(center: Point, force: Double?) {
        self.center = center
        self.force = force.map { $0.isFinite ? min(max($0, 0), 1) : 0 }
    }

    var radius: Double { Self.baseRadius + Self.forceRadius * (force ?? 0) }

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
            .disc(center: center, radius: radius - Self.lineWidth, color: OverlayPalette.contactFill),
            .ring(center: center, radius: radius, lineWidth: Self.lineWidth, color: OverlayPalette.contact),
        ]
        if let label {
            let above = Point(x: center.x, y: center.y - radius - Self.labelGap)
            shapes.append(.label(label, center: above, color: OverlayPalette.contact))
        }
        return shapes
    }
}
