/// The feedback's fixed colours; the pulse's and the force ring's come from the config
/// (`OverlayStyle`). Saturated and mid-bright, so they read on dark and light desktops alike:
/// without a compositor there is no alpha to soften them against what lies beneath.
enum OverlayPalette {
    /// The whole circle the progress arc fills up to: where the threshold is.
    static let progressTrack = OverlayColor(red: 0.55, green: 0.55, blue: 0.55, alpha: 0.5)
    static let contact = OverlayColor(red: 1, green: 0.58, blue: 0)
    static let contactFill = OverlayColor(red: 1, green: 0.58, blue: 0, alpha: 0.25)
}
