import CCairo
import Glibc
import GestureKit

/// Draws the overlay's shapes with Cairo: antialiased arcs and discs, and labels in a real
/// font on a backing that reads on any desktop.
///
/// One geometry, three ways to lay it down (`Pass`): in colour with alpha for a window a
/// compositor blends; in opaque colour, 1.5 pixels wider all round (more than half a pixel's
/// diagonal), for a shaped window whose mask keeps the exact geometry (so the mask's edge
/// never shows a dark fringe); and as whole-pixel coverage times alpha into an alpha-only
/// image, from which that mask is dithered.
struct OverlayPainter {
    enum Pass {
        case blended
        case opaqueUnderMask
        case coverage
    }

    /// The label's backing around its text, in parts of the font size.
    static let labelPadding = 0.27
    static let labelCorner = 0.27
    static let labelBacking = OverlayColor(red: 0.08, green: 0.08, blue: 0.1, alpha: 0.72)

    let pass: Pass
    /// The window's top-left corner in root pixels: shapes come in root pixels.
    let origin: (x: Int, y: Int)

    /// Draws `shapes` in order onto `cairo` (a fresh context on a cleared surface).
    func paint(_ shapes: [OverlayShape], on cairo: OpaquePointer) {
        cairo_save(cairo)
        if pass == .coverage {
            // A one-bit shape cannot blend an edge, and a dithered edge breaks a thin line
            // into dots: the shape keeps whole pixels, and only fades are dithered.
            cairo_set_antialias(cairo, CAIRO_ANTIALIAS_NONE)
            if let options = cairo_font_options_create() {
                cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_NONE)
                cairo_set_font_options(cairo, options)
                cairo_font_options_destroy(options)
            }
        }
        cairo_translate(cairo, -Double(origin.x), -Double(origin.y))
        for shape in shapes { paint(shape, on: cairo) }
        cairo_restore(cairo)
    }

    private var widening: Double { pass == .opaqueUnderMask ? 1.5 : 0 }

    private func paint(_ shape: OverlayShape, on cairo: OpaquePointer) {
        switch shape {
        case .arc(let center, let radius, let lineWidth, let start, let sweep, let color):
            guard sweep > 0, radius > 0, lineWidth > 0, setSource(color, on: cairo) else { return }
            cairo_new_path(cairo)
            // Turns clockwise from 12 o'clock; Cairo's radians grow clockwise from 3 o'clock.
            let first = (start - 0.25) * 2 * Double.pi
            let whole = sweep >= 1
            cairo_arc(cairo, center.x, center.y, radius, first, first + Swift.min(sweep, 1) * 2 * Double.pi)
            if whole { cairo_close_path(cairo) }
            cairo_set_line_width(cairo, lineWidth + 2 * widening)
            cairo_set_line_cap(cairo, whole ? CAIRO_LINE_CAP_BUTT : CAIRO_LINE_CAP_ROUND)
            cairo_stroke(cairo)
        case .disc(let center, let radius, let color):
            guard radius > 0, setSource(color, on: cairo) else { return }
            cairo_new_path(cairo)
            cairo_arc(cairo, center.x, center.y, radius + widening, 0, 2 * Double.pi)
            cairo_fill(cairo)
        case .label(let text, let center, let size, let color):
            guard !text.isEmpty, size > 0 else { return }
            label(text, center: center, size: size, color: color, on: cairo)
        }
    }

    /// Text centred on `center`, on a rounded backing.
    private func label(_ text: String, center: Point, size: Double, color: OverlayColor, on cairo: OpaquePointer) {
        cairo_select_font_face(cairo, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cairo, size)
        let padding = Self.labelPadding * size
        var extents = cairo_text_extents_t()
        cairo_text_extents(cairo, text, &extents)
        var font = cairo_font_extents_t()
        cairo_font_extents(cairo, &font)
        let height = font.ascent + font.descent
        let box = (x: center.x - extents.width / 2 - padding, y: center.y - height / 2 - padding,
                   width: extents.width + 2 * padding, height: height + 2 * padding)
        if setSource(Self.labelBacking, on: cairo) {
            roundedRectangle(box, corner: Self.labelCorner * size, on: cairo)
            cairo_fill(cairo)
        }
        guard setSource(color, on: cairo) else { return }
        cairo_move_to(cairo, center.x - extents.width / 2 - extents.x_bearing, center.y - height / 2 + font.ascent)
        cairo_show_text(cairo, text)
    }

    private func roundedRectangle(_ box: (x: Double, y: Double, width: Double, height: Double), corner: Double,
                                  on cairo: OpaquePointer) {
        let radius = Swift.min(corner, box.width / 2, box.height / 2)
        cairo_new_path(cairo)
        cairo_arc(cairo, box.x + box.width - radius, box.y + radius, radius, -Double.pi / 2, 0)
        cairo_arc(cairo, box.x + box.width - radius, box.y + box.height - radius, radius, 0, Double.pi / 2)
        cairo_arc(cairo, box.x + radius, box.y + box.height - radius, radius, Double.pi / 2, Double.pi)
        cairo_arc(cairo, box.x + radius, box.y + radius, radius, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cairo)
    }

    /// Sets the source for `color` in this pass; false when there is nothing to draw.
    private func setSource(_ color: OverlayColor, on cairo: OpaquePointer) -> Bool {
        let alpha = color.alpha.isFinite ? Swift.min(Swift.max(color.alpha, 0), 1) : 0
        guard alpha > 0 else { return false }
        switch pass {
        case .blended:
            cairo_set_source_rgba(cairo, color.red, color.green, color.blue, alpha)
        case .opaqueUnderMask:
            cairo_set_source_rgb(cairo, color.red, color.green, color.blue)
        case .coverage:
            cairo_set_source_rgba(cairo, 0, 0, 0, alpha)
        }
        return true
    }
}

/// A shaped window's mask, from shapes: whole pixels, their alpha dithered to one bit a pixel.
struct OverlayMask {
    let width: Int
    let height: Int
    /// Rows of `(width + 7) / 8` bytes, the leftmost pixel in the lowest bit (the order
    /// XCreateBitmapFromData reads).
    private(set) var bits: [UInt8]

    /// Renders `shapes` for a window at `origin` (root pixels) of `width` × `height`. The
    /// dither pattern is anchored to the root, so it stays put while a window moves.
    init(_ shapes: [OverlayShape], origin: (x: Int, y: Int), width: Int, height: Int) {
        self.width = width
        self.height = height
        let rowBytes = (width + 7) / 8
        bits = [UInt8](repeating: 0, count: rowBytes * height)
        guard width > 0, height > 0,
              let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)) else { return }
        defer { cairo_surface_destroy(surface) }
        guard let cairo = cairo_create(surface) else { return }
        OverlayPainter(pass: .coverage, origin: origin).paint(shapes, on: cairo)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let size = DitherPattern.size
        for row in 0..<height {
            let patternRow = ((origin.y + row) % size + size) % size
            for column in 0..<width {
                let coverage = data[row * stride + column]
                guard coverage > 0 else { continue }
                let patternColumn = ((origin.x + column) % size + size) % size
                if DitherPattern.keeps(coverage: coverage, row: patternRow, column: patternColumn) {
                    bits[row * rowBytes + column / 8] |= 1 << UInt8(column % 8)
                }
            }
        }
    }
}
