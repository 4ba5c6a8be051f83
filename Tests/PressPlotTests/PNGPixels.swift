import CCairo
import PressPlot

/// A PNG file's pixels as a viewer shows them, read back through Cairo's own PNG reader.
struct PNGPixels {
    let width: Int
    let height: Int
    private let pixels: [UInt32]

    /// Nil when the file is not a PNG Cairo can read.
    init?(path: String) {
        guard let surface = cairo_image_surface_create_from_png(path) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else { return nil }
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        let raw = UnsafeRawPointer(data)
        for y in 0..<height {
            for x in 0..<width {
                pixels.append(raw.loadUnaligned(fromByteOffset: y * stride + x * 4, as: UInt32.self))
            }
        }
        self.pixels = pixels
    }

    /// The colour at (x, y): Cairo keeps a pixel as 0xAARRGGBB in a native word. Nil outside.
    subscript(x: Int, y: Int) -> PlotColor? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let value = pixels[y * width + x]
        return PlotColor(UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF))
    }

    /// The separate patches of exactly `color` (4-connected), as their pixel counts.
    func patches(of color: PlotColor) -> [Int] {
        var seen = [Bool](repeating: false, count: width * height)
        var sizes: [Int] = []
        for start in 0..<(width * height) where !seen[start] && self[start % width, start / width] == color {
            var size = 0
            var stack = [start]
            seen[start] = true
            while let index = stack.popLast() {
                size += 1
                let x = index % width, y = index / width
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where self[nx, ny] == color {
                    let next = ny * width + nx
                    if !seen[next] {
                        seen[next] = true
                        stack.append(next)
                    }
                }
            }
            sizes.append(size)
        }
        return sizes
    }
}
