/// Why the on-screen feedback cannot run on this display. The bridge works without it; the
/// message says what is missing.
public enum OverlayError: Error, Sendable, Hashable, CustomStringConvertible {
    case screenOutOfRange(screen: Int32, screenCount: Int32)
    /// An X extension the overlay needs is missing or too old.
    case extensionMissing(name: String, purpose: String)
    /// The screen's default visual cannot show colours directly (not TrueColor).
    case unsupportedVisual(depth: Int32)

    public var description: String {
        switch self {
        case .screenOutOfRange(let screen, let count):
            return "the display has no screen \(screen) (it has \(count))"
        case .extensionMissing(let name, let purpose):
            return "the X server lacks the \(name) extension, needed \(purpose); feedback is off"
        case .unsupportedVisual(let depth):
            return "the screen's default visual (depth \(depth)) is not TrueColor; feedback is off"
        }
    }
}
