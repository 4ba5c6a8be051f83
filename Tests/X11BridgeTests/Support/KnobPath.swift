import Foundation
import XorgTestSupport

/// Points around a knob's center, for turning it: clockwise on screen is growing angle,
/// since root y grows downwards.
enum KnobPath {
    static func points(center: PixelPoint, radius: Double, fromDegrees start: Double, toDegrees end: Double,
                       stepDegrees: Double = 10) -> [PixelPoint] {
        let count = Int((abs(end - start) / stepDegrees).rounded(.up))
        return (0...count).map { index in
            let degrees = start + (end - start) * Double(index) / Double(max(1, count))
            let radians = degrees * .pi / 180
            return (center.x + radius * cos(radians), center.y + radius * sin(radians))
        }
    }
}
