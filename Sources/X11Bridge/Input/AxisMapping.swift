import GestureKit

/// Turns absolute valuator values into root-window pixels the way the X server does.
///
/// The server scales a device range [min, max] onto the desktop as (v - min) * extent /
/// (max - min + 1). The valuators of raw events already include the device's coordinate
/// transformation matrix (measured: a matrix with a 0.5 x-scale halves the raw event's
/// processed value), so this mapping gives the exact position the pointer goes to, and it
/// keeps working while a grab freezes the master pointer.
public enum AxisMapping {
    public static func pixel(_ value: Double, axis: ValuatorAxis, extent: Double) -> Double {
        let span = axis.max - axis.min + 1
        guard span > 0, value.isFinite else { return 0 }
        return (value - axis.min) * extent / span
    }

    /// The inverse, for drivers that take device units (tests, the inputtest driver).
    public static func deviceValue(_ pixel: Double, axis: ValuatorAxis, extent: Double) -> Double {
        guard extent > 0 else { return axis.min }
        return pixel * (axis.max - axis.min + 1) / extent + axis.min
    }

    public static func point(x: Double, y: Double, xAxis: ValuatorAxis, yAxis: ValuatorAxis, screen: ScreenSize) -> Point {
        Point(x: pixel(x, axis: xAxis, extent: screen.width), y: pixel(y, axis: yAxis, extent: screen.height))
    }
}
