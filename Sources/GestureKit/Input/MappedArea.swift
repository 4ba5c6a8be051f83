/// The part of the screen an absolute device's surface is mapped to, as fractions of the
/// root window's width and height: a touchscreen mapped to its own monitor (the desktop does it,
/// or `xinput map-to-output`) reaches that monitor and no other. X keeps the mapping as the
/// device's coordinate transformation matrix, in the same fractions, so the area stays right
/// when the screen's size changes.
public struct MappedArea: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The area a coordinate transformation matrix (row by row, as X keeps it: device
    /// fractions in, screen fractions out) maps the device's whole surface onto: the bounds of its
    /// four corners' images (a rotated mapping turns the surface; its bounds are the same),
    /// within the screen. Nil when that is the whole screen (no mapping), and for a matrix that
    /// maps the surface onto no area (not nine finite numbers, a projection through zero, a
    /// line): the server's own check refuses such a matrix only when it cannot be inverted.
    public init?(matrix: [Double]) {
        guard matrix.count == 9, matrix.allSatisfy(\.isFinite) else { return nil }
        var corners: [(x: Double, y: Double)] = []
        for (u, v) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            let w = matrix[6] * u + matrix[7] * v + matrix[8]
            guard abs(w) > 1e-9 else { return nil }
            corners.append(((matrix[0] * u + matrix[1] * v + matrix[2]) / w, (matrix[3] * u + matrix[4] * v + matrix[5]) / w))
        }
        let left = max(0, corners.map(\.x).min() ?? 0), right = min(1, corners.map(\.x).max() ?? 1)
        let top = max(0, corners.map(\.y).min() ?? 0), bottom = min(1, corners.map(\.y).max() ?? 1)
        let tolerance = 1e-4
        guard right - left > tolerance, bottom - top > tolerance else { return nil }
        if left < tolerance, top < tolerance, right > 1 - tolerance, bottom > 1 - tolerance { return nil }
        self.init(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The area in pixels on a screen of `size`, to the nearest pixel.
    public func frame(on size: ScreenSize) -> ScreenRect {
        let left = (x * size.width).rounded(), top = (y * size.height).rounded()
        return ScreenRect(x: Int(left), y: Int(top), width: Int(((x + width) * size.width).rounded() - left),
                          height: Int(((y + height) * size.height).rounded() - top))
    }
}
