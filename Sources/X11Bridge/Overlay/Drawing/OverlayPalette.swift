/// The feedback's colours. Saturated and mid-bright, so they read on dark and light desktops
/// alike: without a compositor there is no alpha to soften them against what lies beneath.
enum OverlayPalette {
    static let pulse = OverlayColor(red: 0.2, green: 0.6, blue: 1)
    static let progress = OverlayColor(red: 0.2, green: 0.6, blue: 1)
    /// The whole circle the progress arc fills up to: where the threshold is.
    static let progressTrack = OverlayColor(red: 0.55, green: 0.55, blue: 0.55, alpha: 0.5)
    static let contact = OverlayColor(red: 1, green: 0.58, blue: 0)
    static let contactFill = OverlayColor(red: 1, green: 0.58, blue: 0, alpha: 0.25)
}
