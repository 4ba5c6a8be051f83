import GestureKit

extension ScreenRect {
    /// The square reaching `halfSize` pixels from `center` on every side.
    static func square(around center: Point, halfSize: Int) -> ScreenRect {
        let left = Int(center.x.rounded(.down)) - halfSize
        let top = Int(center.y.rounded(.down)) - halfSize
        return ScreenRect(x: left, y: top, width: 2 * halfSize + 1, height: 2 * halfSize + 1)
    }
}
