import GestureKit

/// A rectangle of whole pixels in root-window coordinates.
struct PixelRect: Sendable, Hashable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// The square reaching `halfSize` pixels from `center` on every side.
    static func square(around center: Point, halfSize: Int) -> PixelRect {
        let left = Int(center.x.rounded(.down)) - halfSize
        let top = Int(center.y.rounded(.down)) - halfSize
        return PixelRect(x: left, y: top, width: 2 * halfSize + 1, height: 2 * halfSize + 1)
    }

    init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    init(_ rect: ScreenRect) {
        self.init(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    var screenRect: ScreenRect { ScreenRect(x: x, y: y, width: width, height: height) }

    var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The part inside `other`, or nil when they do not meet.
    func intersection(_ other: PixelRect) -> PixelRect? {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(x + width, other.x + other.width)
        let bottom = min(y + height, other.y + other.height)
        guard right > left, bottom > top else { return nil }
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
