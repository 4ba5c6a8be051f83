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

/// A config with one knob on the pen, centred at (640, 400), its ring 50 to 150 px, a step every
/// 30°, named `name` and sending `clockwise` and `counterclockwise` (actions as a config writes them).
func penKnobConfig(_ name: String, clockwise: String, counterclockwise: String, devices: String = "pen") -> String {
    """
    bindings:
      - name: \(name)
        gesture: knob
        devices: [\(devices)]
        center: [640, 400]
        inner-radius: 50
        outer-radius: 150
        step: 30
        clockwise: \(clockwise)
        counterclockwise: \(counterclockwise)
    """
}
