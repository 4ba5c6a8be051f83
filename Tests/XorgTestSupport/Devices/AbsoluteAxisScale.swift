/// Converts screen pixels and normalized pressure into the inputtest devices' units.
///
/// The server maps an absolute axis of 0...65535 onto the screen as `value * size / 65536`,
/// so `pixel * 65536 / size` lands on the exact pixel.
struct AbsoluteAxisScale: Sendable {
    static let axisUnits = 65536.0

    let screenWidth: Int
    let screenHeight: Int
    let pressureMaximum: Double

    func deviceX(_ pixelX: Double) -> Double {
        pixelX * Self.axisUnits / Double(screenWidth)
    }

    func deviceY(_ pixelY: Double) -> Double {
        pixelY * Self.axisUnits / Double(screenHeight)
    }

    /// Pressure is given 0...1 like a normalized force; out-of-range values are clamped so a
    /// script cannot send what no device reports.
    func devicePressure(_ normalized: Double) -> Double {
        (min(max(normalized, 0), 1) * pressureMaximum).rounded()
    }

    func valuators(at position: PixelPoint, normalizedPressure: Double) -> InputTestValuators {
        InputTestValuators(x: deviceX(position.x), y: deviceY(position.y), pressure: devicePressure(normalizedPressure))
    }
}
