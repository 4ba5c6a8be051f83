/// An 8-bit RGB colour as a screenshot shows it.
struct OverlayTestColor: Hashable, CustomStringConvertible {
    var red: UInt8
    var green: UInt8
    var blue: UInt8

    /// The feedback's colours, as the overlay draws them on a 24-bit screen.
    static let pulse = OverlayTestColor(red: 51, green: 153, blue: 255)
    static let track = OverlayTestColor(red: 140, green: 140, blue: 140)
    static let contact = OverlayTestColor(red: 255, green: 148, blue: 0)
    static let black = OverlayTestColor(red: 0, green: 0, blue: 0)

    /// The pixel value on a 24-bit TrueColor screen (Xvfb's layout).
    var pixel: UInt { UInt(red) << 16 | UInt(green) << 8 | UInt(blue) }

    var description: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
