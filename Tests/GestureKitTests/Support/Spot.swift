import Foundation
@testable import GestureKit

/// A place on the screen as a script writes it: `(100, 100)`.
typealias Spot = (x: Double, y: Double)

extension Point {
    init(_ spot: Spot) {
        self.init(x: spot.x, y: spot.y)
    }

    /// `(100, 100)`, as a script writes it, for failure messages.
    var scriptDescription: String { "(\(x.formatted), \(y.formatted))" }
}

/// The spot `radians` clockwise from 3 o'clock on a circle: how a knob is drawn on screen,
/// where y grows downwards.
func spot(around center: Spot, radius: Double, radians: Double) -> Spot {
    (center.x + radius * cos(radians), center.y + radius * sin(radians))
}

func spot(around center: Spot, radius: Double, degrees: Double) -> Spot {
    spot(around: center, radius: radius, radians: degrees * .pi / 180)
}
