/// The ring a deep press sends out: it grows, thickens and fades to nothing, all on one
/// ease-out curve, like the pulse layer of the deep-press recognizer this feedback follows
/// (its path grows by 50 points, its line width goes to 10, its opacity to 0, in 0.25 s).
struct PulseAnimation: Sendable, Hashable {
    var duration = 0.25
    /// About a fingertip: the ring starts just outside what the finger or pen tip covers.
    var startRadius = 20.0
    var growth = 50.0
    var startLineWidth = 1.0
    var endLineWidth = 10.0
    var curve = TimingCurve.easeOut

    init() {}

    /// The pulse in `style`: its sizes scaled, its length the config's.
    init(style: OverlayStyle) {
        duration = style.pulseDuration
        startRadius *= style.scale
        growth *= style.scale
        startLineWidth *= style.scale
        endLineWidth *= style.scale
    }

    /// One frame's look.
    struct Frame: Sendable, Hashable {
        var radius: Double
        var lineWidth: Double
        /// 1 is fully visible, 0 is gone.
        var opacity: Double
    }

    /// The frame `elapsed` seconds after the pulse began, or nil once it is over.
    func frame(atElapsed elapsed: Double) -> Frame? {
        guard elapsed < duration else { return nil }
        let eased = curve.value(at: max(elapsed, 0) / duration)
        return Frame(radius: startRadius + growth * eased,
                     lineWidth: startLineWidth + (endLineWidth - startLineWidth) * eased,
                     opacity: 1 - eased)
    }

    /// How far from the center any frame reaches, in whole pixels: the window's half-size, so
    /// one window holds the whole animation without being resized.
    var extent: Int {
        Int((startRadius + growth + endLineWidth / 2).rounded(.up)) + 2
    }
}
