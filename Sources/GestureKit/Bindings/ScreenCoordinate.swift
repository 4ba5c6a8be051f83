/// A coordinate on the screen, from the top-left corner, or from the right or bottom edge
/// when written negative (`-120` is 120 pixels in from the right or bottom), so a knob in a
/// corner stays there on every screen size.
public struct ScreenCoordinate: Sendable, Hashable, CustomStringConvertible {
    public var value: Double

    public init(_ value: Double) {
        self.value = value
    }

    public func resolve(extent: Double) -> Double {
        value < 0 ? extent + value : value
    }

    public var description: String { value.formatted }
}

/// The size of the root window in pixels; in the `--json` lines `{"width","height"}` (a trace
/// header's and `listening`'s `screen`).
public struct ScreenSize: Sendable, Hashable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Used when nothing tells the size (a trace without a `screen`).
    public static let fallback = ScreenSize(width: 1920, height: 1080)
}

extension Double {
    /// Integral values without a fraction (`110`), others as Swift prints them (`0.78`).
    public var formatted: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int(self)) }
        return String(self)
    }
}
