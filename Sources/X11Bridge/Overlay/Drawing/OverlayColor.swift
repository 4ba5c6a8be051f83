/// A colour with straight (not premultiplied) alpha, components 0...1.
struct OverlayColor: Sendable, Hashable {
    var red: Double
    var green: Double
    var blue: Double
    var alpha: Double = 1

    /// The same colour, `opacity` times as opaque.
    func fading(to opacity: Double) -> OverlayColor {
        var faded = self
        faded.alpha = alpha * min(max(opacity, 0), 1)
        return faded
    }
}
