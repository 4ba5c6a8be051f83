import CCairo
import Glibc

/// Why a picture could not be made or saved.
public struct PlotError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

/// Paints a `PlotLayout` with Cairo into an image in memory, and saves it as PNG. It decides
/// nothing: every place and colour comes from the layout and its style.
public enum PlotRenderer {
    /// The picture as PNG bytes.
    public static func png(_ layout: PlotLayout) throws(PlotError) -> [UInt8] {
        guard layout.width > 0, layout.height > 0, layout.width <= 32_767, layout.height <= 32_767 else {
            throw PlotError("the picture would be \(layout.width)×\(layout.height) pixels, too large to draw")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(layout.width), Int32(layout.height)) else {
            throw PlotError("Cairo could not make an image")
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cairo = cairo_create(surface) else {
            throw PlotError("Cairo could not make a \(layout.width)×\(layout.height) image")
        }
        // Glyphs fitted to the pixel grid: crisper small text (and a smaller file).
        if let options = cairo_font_options_create() {
            cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_FULL)
            cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_ON)
            cairo_set_font_options(cairo, options)
            cairo_font_options_destroy(options)
        }
        Painter(cairo: cairo, style: layout.style).paint(layout)
        cairo_destroy(cairo)
        cairo_surface_flush(surface)
        let sink = ByteSink()
        let status = cairo_surface_write_to_png_stream(surface, { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PlotError("Cairo could not encode the PNG: \(String(cString: cairo_status_to_string(status)))")
        }
        return sink.bytes
    }

    /// Draws the picture and writes it to `path` (created or replaced, mode 0666 less the umask).
    public static func write(_ layout: PlotLayout, to path: String) throws(PlotError) {
        let bytes = try png(layout)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw PlotError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw PlotError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}

/// Where Cairo's PNG encoder puts its bytes.
private final class ByteSink {
    var bytes: [UInt8] = []
}

/// The Cairo calls, one small function per kind of thing drawn.
private struct Painter {
    let cairo: OpaquePointer
    let style: PlotStyle

    func paint(_ layout: PlotLayout) {
        fill(PlotRect(x: 0, y: 0, width: Double(layout.width), height: Double(layout.height)), .background)
        for panel in layout.panels { paint(panel) }
        for item in layout.legend { paint(item) }
        for text in layout.texts { draw(text) }
    }

    func paint(_ panel: PanelLayout) {
        let plot = panel.plot
        if let held = panel.held { fill(held, .held) }
        for tick in panel.forceTicks {
            line(from: PlotPoint(x: plot.x, y: crisp(tick.position)), to: PlotPoint(x: plot.maxX, y: crisp(tick.position)),
                 ink: .grid, width: 1)
            draw(PlotText(text: tick.label, origin: PlotPoint(x: plot.x - 30, y: tick.position + style.tickSize / 2 - 1), size: style.tickSize))
        }
        for tick in panel.timeTicks {
            line(from: PlotPoint(x: crisp(tick.position), y: plot.maxY), to: PlotPoint(x: crisp(tick.position), y: plot.maxY + 4),
                 ink: .axis, width: 1)
            let width = Double(tick.label.count) * style.tickSize * style.characterWidth
            draw(PlotText(text: tick.label, origin: PlotPoint(x: tick.position - width / 2, y: plot.maxY + 5 + style.tickSize), size: style.tickSize))
        }
        // The configured levels first: learned or proposed ones, the ones that count, on top.
        for mark in panel.levels.sorted(by: { ($0.source == .configured ? 0 : 1) < ($1.source == .configured ? 0 : 1) }) {
            cairo_set_dash(cairo, style.dashes(mark.kind), Int32(style.dashes(mark.kind).count), 0)
            line(from: PlotPoint(x: plot.x, y: mark.y), to: PlotPoint(x: plot.maxX, y: mark.y), ink: .level(mark.kind, mark.source), width: mark.width)
            cairo_set_dash(cairo, nil, 0, 0)
        }
        line(from: PlotPoint(x: plot.x + 0.5, y: plot.y), to: PlotPoint(x: plot.x + 0.5, y: plot.maxY), ink: .axis, width: 1)
        line(from: PlotPoint(x: plot.x, y: plot.maxY + 0.5), to: PlotPoint(x: plot.maxX, y: plot.maxY + 0.5), ink: .axis, width: 1)
        if let first = panel.curve.first {
            cairo_save(cairo)
            cairo_rectangle(cairo, plot.x, plot.y - 2, plot.width, plot.height + 4)
            cairo_clip(cairo)
            cairo_new_path(cairo)
            cairo_move_to(cairo, first.x, first.y)
            for point in panel.curve.dropFirst() { cairo_line_to(cairo, point.x, point.y) }
            set(.curve)
            cairo_set_line_width(cairo, style.curveWidth)
            cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cairo)
            cairo_restore(cairo)
        }
        if let marker = panel.marker {
            drawMarker(marker.kind, at: marker.center, radius: style.markerRadius)
            draw(PlotText(text: marker.label, origin: marker.labelOrigin, size: style.tickSize, bold: true))
        }
        for text in panel.title { draw(text) }
    }

    func paint(_ item: LegendItem) {
        let frame = item.frame
        let middle = frame.y + frame.height / 2
        switch item.sample {
        case .curve:
            line(from: PlotPoint(x: frame.x, y: middle), to: PlotPoint(x: frame.maxX, y: middle), ink: .curve, width: style.curveWidth)
        case .band:
            fill(frame, .held)
        case .marker(let kind):
            drawMarker(kind, at: PlotPoint(x: frame.x + frame.width / 2, y: middle), radius: style.markerRadius)
        case .level(let kind, let source):
            let width = style.lineWidth(source)
            let y = Int(width) % 2 == 0 ? middle.rounded() : middle.rounded() + 0.5
            cairo_set_dash(cairo, style.dashes(kind), Int32(style.dashes(kind).count), 0)
            line(from: PlotPoint(x: frame.x, y: y), to: PlotPoint(x: frame.maxX, y: y), ink: .level(kind, source), width: width)
            cairo_set_dash(cairo, nil, 0, 0)
        }
        draw(PlotText(text: item.label, origin: item.textOrigin, size: style.textSize))
    }

    /// A claimed press's filled diamond, a handed-over one's filled circle, outlined in the
    /// curve's colour.
    func drawMarker(_ kind: MarkerKind, at center: PlotPoint, radius: Double) {
        cairo_new_path(cairo)
        switch kind {
        case .claimed:
            let reach = radius * 1.25
            cairo_move_to(cairo, center.x, center.y - reach)
            cairo_line_to(cairo, center.x + reach, center.y)
            cairo_line_to(cairo, center.x, center.y + reach)
            cairo_line_to(cairo, center.x - reach, center.y)
            cairo_close_path(cairo)
        case .handedOver:
            cairo_arc(cairo, center.x, center.y, radius, 0, 2 * Double.pi)
        }
        set(.marker(kind))
        cairo_fill_preserve(cairo)
        set(.curve)
        cairo_set_line_width(cairo, 1)
        cairo_stroke(cairo)
    }

    func draw(_ text: PlotText) {
        cairo_save(cairo)
        cairo_select_font_face(cairo, "sans-serif", CAIRO_FONT_SLANT_NORMAL, text.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cairo, text.size)
        set(.text)
        cairo_translate(cairo, text.origin.x, text.origin.y)
        if text.vertical { cairo_rotate(cairo, -Double.pi / 2) }
        cairo_move_to(cairo, 0, 0)
        cairo_show_text(cairo, text.text)
        cairo_restore(cairo)
    }

    func line(from start: PlotPoint, to end: PlotPoint, ink: PlotInk, width: Double) {
        cairo_new_path(cairo)
        cairo_move_to(cairo, start.x, start.y)
        cairo_line_to(cairo, end.x, end.y)
        set(ink)
        cairo_set_line_width(cairo, width)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_BUTT)
        cairo_stroke(cairo)
    }

    func fill(_ rect: PlotRect, _ ink: PlotInk) {
        cairo_new_path(cairo)
        cairo_rectangle(cairo, rect.x, rect.y, rect.width, rect.height)
        set(ink)
        cairo_fill(cairo)
    }

    func set(_ ink: PlotInk) {
        let color = style.color(ink)
        cairo_set_source_rgb(cairo, Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
    }

    /// The middle of the pixel row `y` falls in: a 1-pixel line there is crisp.
    func crisp(_ y: Double) -> Double { y.rounded(.down) + 0.5 }
}
