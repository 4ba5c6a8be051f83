/// A colour with straight (not premultiplied) alpha, components 0...1.
struct OverlayColor: Sendable, Hashable {
    var red: Double
    var green: Double
    var blue: Double
    var alpha: Double

    init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The same colour, `opacity` times as opaque.
    func fading(to opacity: Double) -> OverlayColor {
        var faded = self
        faded.alpha = alpha * min(max(opacity, 0), 1)
        return faded
    }
}
