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

    /// How far along from `start` to `end` this colour lies, when it is a blend of the two
    /// (each channel within `tolerance` of the same mix); nil when it is not.
    func blend(from start: OverlayTestColor, to end: OverlayTestColor, tolerance: Double = 4) -> Double? {
        let channels = [(red, start.red, end.red), (green, start.green, end.green), (blue, start.blue, end.blue)]
        let spans = channels.map { Double($0.2) - Double($0.1) }
        guard let widest = spans.indices.max(by: { abs(spans[$0]) < abs(spans[$1]) }), abs(spans[widest]) > 0 else { return nil }
        let share = (Double(channels[widest].0) - Double(channels[widest].1)) / spans[widest]
        guard (-0.02...1.02).contains(share) else { return nil }
        for index in channels.indices {
            let expected = Double(channels[index].1) + share * spans[index]
            if abs(Double(channels[index].0) - expected) > tolerance { return nil }
        }
        return Swift.min(Swift.max(share, 0), 1)
    }

    /// Whether this colour is one of `colours` or a blend of two of them: what antialiased
    /// drawing of those colours can leave on screen, and nothing else (no dark fringe).
    func isBlend(of colours: [OverlayTestColor]) -> Bool {
        if colours.contains(self) { return true }
        for first in colours.indices {
            for second in colours.indices where second > first {
                if blend(from: colours[first], to: colours[second]) != nil { return true }
            }
        }
        return false
    }

    var description: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
