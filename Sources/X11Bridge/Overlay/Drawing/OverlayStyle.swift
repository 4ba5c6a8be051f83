import GestureKit

/// What the feedback looks like on one screen: the config's look (`FeedbackLook`) with the
/// screen's scale folded into its sizes.
struct OverlayStyle: Sendable, Hashable {
    /// Pixels per design pixel: the config's `size` times the screen's DPI over 96.
    var scale: Double
    /// The pulse's and the force ring's colour.
    var accent: OverlayColor
    var pulseDuration: Double

    static let standard = OverlayStyle(look: .standard, screenScale: 1)

    init(look: FeedbackLook, screenScale: Double) {
        let screen = screenScale.isFinite && screenScale > 0 ? screenScale : 1
        scale = look.size * screen
        accent = OverlayColor(red: Double(look.color.red) / 255, green: Double(look.color.green) / 255,
                              blue: Double(look.color.blue) / 255)
        pulseDuration = look.duration
    }
}
