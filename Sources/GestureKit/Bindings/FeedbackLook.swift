/// How the on-screen feedback looks, from the config's top-level `feedback:` section: the
/// colour of the pulse and the force ring, a size on top of the screen's scale, and how long
/// the pulse lasts.
public struct FeedbackLook: Sendable, Hashable {
    /// Red, green and blue, 0...255.
    public var color: (red: UInt8, green: UInt8, blue: UInt8)
    /// Multiplies every size; the screen's own scale (its DPI) comes on top.
    public var size: Double
    /// Seconds the pulse takes to grow and fade.
    public var duration: Double

    /// The keys of the config's top-level `feedback:` section.
    public enum Keys {
        /// A mid-bright blue: it reads on dark and light desktops alike.
        public static let color = ColorKey("color", standard: 0x3399ff)
        public static let size = NumberKey("size", .scale, 0.5...4, standard: 1)
        public static let duration = NumberKey("duration", .seconds, 0.1...2, standard: 0.25)
    }

    public static let schema = SectionSchema([Keys.color.entry, Keys.size.entry, Keys.duration.entry])

    public static let standard = FeedbackLook(color: Keys.color.standardRGB, size: Keys.size.standard,
                                              duration: Keys.duration.standard)

    public init(color: (red: UInt8, green: UInt8, blue: UInt8), size: Double, duration: Double) {
        self.color = color
        self.size = size
        self.duration = duration
    }

    /// `#rrggbb`.
    public var hexColor: String {
        "#" + [color.red, color.green, color.blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Reads `#rrggbb` (or `rrggbb`); nil for anything else.
    public static func color(hex text: String) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        return (UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff))
    }

    public static func == (left: FeedbackLook, right: FeedbackLook) -> Bool {
        left.color == right.color && left.size == right.size && left.duration == right.duration
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(color.red)
        hasher.combine(color.green)
        hasher.combine(color.blue)
        hasher.combine(size)
        hasher.combine(duration)
    }
}
