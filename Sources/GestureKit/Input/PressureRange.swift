/// The range of a device's pressure axis, in the device's own units.
public struct PressureRange: Sendable, Hashable {
    public var min: Double
    public var max: Double

    /// A range is usable only when it spans something; a flat one would divide by zero.
    public init?(min: Double, max: Double) {
        guard min.isFinite, max.isFinite, max > min else { return nil }
        self.min = min
        self.max = max
    }

    /// Force in 0...1, clamped: devices report values outside their advertised range.
    public func normalize(_ raw: Double) -> Double {
        guard raw.isFinite else { return 0 }
        let value = (raw - min) / (max - min)
        return Swift.min(1, Swift.max(0, value))
    }
}
