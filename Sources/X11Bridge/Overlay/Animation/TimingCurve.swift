/// A cubic Bézier timing curve from (0, 0) to (1, 1), the kind Core Animation and CSS use:
/// it maps the share of an animation's time that has passed to the share of its change.
struct TimingCurve: Sendable, Hashable {
    var x1: Double
    var y1: Double
    var x2: Double
    var y2: Double

    /// Core Animation's ease-out, the deep-press pulse's curve: the ring leaps out at once and
    /// settles gently.
    static let easeOut = TimingCurve(x1: 0, y1: 0, x2: 0.58, y2: 1)
    static let linear = TimingCurve(x1: 0, y1: 0, x2: 1, y2: 1)

    /// The curve's value when `progress` (0...1, clamped) of the time has passed.
    func value(at progress: Double) -> Double {
        guard progress.isFinite else { return progress > 0 ? 1 : 0 }
        let x = min(max(progress, 0), 1)
        if x == 0 || x == 1 { return x }
        return Self.bezier(parameter(forX: x), x1: y1, x2: y2)
    }

    /// The curve is given parametrically, so the time axis has to be inverted: Newton's method
    /// converges in a few steps where the curve is steep, bisection is the fallback where it is
    /// flat (x1 or x2 near 0 or 1 make the derivative vanish at the ends).
    private func parameter(forX x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = Self.bezier(t, x1: x1, x2: x2) - x
            if abs(error) < 1e-9 { return t }
            let slope = Self.derivative(t, x1: x1, x2: x2)
            if abs(slope) < 1e-6 { break }
            t -= error / slope
        }
        var low = 0.0
        var high = 1.0
        t = x
        for _ in 0..<60 {
            let value = Self.bezier(t, x1: x1, x2: x2)
            if abs(value - x) < 1e-9 { break }
            if value < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return t
    }

    private static func bezier(_ t: Double, x1: Double, x2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t
    }

    private static func derivative(_ t: Double, x1: Double, x2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * x1 + 6 * u * t * (x2 - x1) + 3 * t * t * (1 - x2)
    }
}
