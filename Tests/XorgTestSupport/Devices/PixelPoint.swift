/// A position on the screen in pixels, written `(100, 120)` at the call site.
public typealias PixelPoint = (x: Double, y: Double)
