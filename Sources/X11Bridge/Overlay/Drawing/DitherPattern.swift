/// Translucency without a compositor: a 24-bit window cannot blend, but its shape can leave
/// out a share of the pixels in an ordered (Bayer) pattern, so a fading ring dissolves
/// evenly instead of vanishing at once (`OverlayMask`).
enum DitherPattern {
    static let size = 4
    /// 16 coverage steps between transparent and opaque.
    static let levels = size * size

    private static let thresholds: [[Int]] = [
        [0, 8, 2, 10],
        [12, 4, 14, 6],
        [3, 11, 1, 9],
        [15, 7, 13, 5],
    ]

    /// The coverage step nearest to `alpha`: 0 draws nothing, `levels` draws every pixel.
    static func level(for alpha: Double) -> Int {
        guard alpha.isFinite else { return 0 }
        return Int((min(max(alpha, 0), 1) * Double(levels)).rounded())
    }

    /// Whether a pixel of `coverage` (0...255: how much of it the drawing covers, times its
    /// alpha) at `row`, `column` of the pattern is kept.
    static func keeps(coverage: UInt8, row: Int, column: Int) -> Bool {
        thresholds[row][column] < (Int(coverage) * levels + 127) / 255
    }
}
