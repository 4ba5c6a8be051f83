import CX11
import GestureKit

/// One feedback window: override-redirect (no window manager frames, places or focuses it),
/// click-through (an empty input shape sends the pointer to the window beneath), and shaped to
/// what it draws, so without a compositor nothing but the drawing covers the desktop.
///
/// The drawing goes into a pixmap that becomes the window's background: the server repaints
/// exposed parts by itself, so the overlay selects no events and needs no Expose handling in
/// the bridge's event loop.
final class OverlayWindow {
    let id: Window
    let visual: OverlayVisual
    private(set) var frame: PixelRect
    private let resources: OverlayResources
    private var content: Pixmap
    private var mask: Pixmap
    private let contentContext: GC
    private let maskContext: GC
    private var isMapped = false
    private var isDestroyed = false

    private var display: OpaquePointer { resources.display }

    /// Creates the window unmapped; the first `present` maps it.
    init(resources: OverlayResources, frame: PixelRect) {
        self.resources = resources
        self.frame = frame
        let display = resources.display
        let visual = resources.visualForNewWindow()
        self.visual = visual
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = 0
        attributes.border_pixel = 0
        attributes.colormap = visual.colormap
        attributes.event_mask = 0
        // A window of another depth than its parent needs its own border pixel and colormap
        // (BadMatch otherwise); the others are the point of the window.
        let valueMask = UInt(CWOverrideRedirect | CWBackPixel | CWBorderPixel | CWColormap | CWEventMask)
        id = XCreateWindow(display, resources.root, Int32(frame.x), Int32(frame.y),
                           UInt32(frame.width), UInt32(frame.height), 0, visual.depth,
                           UInt32(InputOutput), visual.visual, valueMask, &attributes)
        content = XCreatePixmap(display, id, UInt32(frame.width), UInt32(frame.height), UInt32(visual.depth))
        mask = XCreatePixmap(display, id, UInt32(frame.width), UInt32(frame.height), 1)
        contentContext = XCreateGC(display, content, 0, nil)
        maskContext = XCreateGC(display, mask, 0, nil)
        if let font = resources.font {
            XSetFont(display, contentContext, font.pointee.fid)
            XSetFont(display, maskContext, font.pointee.fid)
        }
        let noInput = XFixesCreateRegion(display, nil, 0)
        XFixesSetWindowShapeRegion(display, id, ShapeInput, 0, 0, noInput)
        XFixesDestroyRegion(display, noInput)
        // Nothing may show before the first drawing has set the real shape.
        XShapeCombineRectangles(display, id, ShapeBounding, 0, 0, nil, 0, ShapeSet, Unsorted)
        describe()
    }

    /// Names the window for xprop, xwininfo and compositor rules (class "GestureBridge").
    private func describe() {
        XStoreName(display, id, "GestureBridge feedback")
        let windowClass = Array("gesture-bridge\u{0}GestureBridge\u{0}".utf8)
        windowClass.withUnsafeBufferPointer { bytes in
            _ = XChangeProperty(display, id, XA_WM_CLASS, XA_STRING, 8, PropModeReplace,
                                bytes.baseAddress, Int32(bytes.count))
        }
        // Format-32 properties travel as C longs.
        let types: [UInt] = [resources.windowType]
        types.withUnsafeBytes { bytes in
            _ = XChangeProperty(display, id, resources.windowTypeProperty, XA_ATOM, 32, PropModeReplace,
                                bytes.bindMemory(to: UInt8.self).baseAddress, Int32(types.count))
        }
    }

    /// Moves and resizes the window; the next `present` draws at the new place.
    func move(to newFrame: PixelRect) {
        guard !isDestroyed, newFrame != frame else { return }
        if newFrame.width != frame.width || newFrame.height != frame.height {
            XFreePixmap(display, content)
            XFreePixmap(display, mask)
            content = XCreatePixmap(display, id, UInt32(newFrame.width), UInt32(newFrame.height), UInt32(visual.depth))
            mask = XCreatePixmap(display, id, UInt32(newFrame.width), UInt32(newFrame.height), 1)
        }
        frame = newFrame
        XMoveResizeWindow(display, id, Int32(newFrame.x), Int32(newFrame.y), UInt32(newFrame.width), UInt32(newFrame.height))
    }

    /// Draws `shapes` (root coordinates) as the window's whole content and shape, and maps
    /// the window the first time: shape first, then map, so no box ever flashes.
    func present(_ shapes: [OverlayShape]) {
        guard !isDestroyed else { return }
        let width = UInt32(frame.width)
        let height = UInt32(frame.height)
        XSetFillStyle(display, maskContext, FillSolid)
        XSetForeground(display, maskContext, 0)
        XFillRectangle(display, mask, maskContext, 0, 0, width, height)
        XSetForeground(display, contentContext, 0)
        XFillRectangle(display, content, contentContext, 0, 0, width, height)
        for shape in shapes {
            draw(shape)
        }
        XShapeCombineMask(display, id, ShapeBounding, 0, 0, mask, ShapeSet)
        // Set again each time: the protocol lets a server copy the pixmap when it is set, so
        // drawing into it afterwards alone would not be guaranteed to show.
        XSetWindowBackgroundPixmap(display, id, content)
        if isMapped {
            XClearWindow(display, id)
        } else {
            XMapRaised(display, id)
            isMapped = true
        }
    }

    /// Unmaps and destroys the window and frees what it drew with.
    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        if isMapped { XUnmapWindow(display, id) }
        XDestroyWindow(display, id)
        XFreePixmap(display, content)
        XFreePixmap(display, mask)
        XFreeGC(display, contentContext)
        XFreeGC(display, maskContext)
    }

    private func draw(_ shape: OverlayShape) {
        let color = shape.color
        // With a compositor the alpha is in the pixels; without, it decides how many of the
        // shape's pixels the window's shape keeps.
        let level = visual.isTranslucent
            ? (color.alpha > 0 ? DitherPattern.levels : 0)
            : DitherPattern.level(for: color.alpha)
        guard level > 0 else { return }
        XSetForeground(display, contentContext, visual.format.pixel(for: color))
        XSetForeground(display, maskContext, 1)
        if level >= DitherPattern.levels {
            XSetFillStyle(display, maskContext, FillSolid)
        } else {
            XSetStipple(display, maskContext, resources.stipples.bitmap(level: level, root: resources.root))
            // Anchored to the root, so the pattern stays put on screen while a window moves.
            let size = DitherPattern.size
            XSetTSOrigin(display, maskContext, Int32(((-frame.x) % size + size) % size),
                         Int32(((-frame.y) % size + size) % size))
            XSetFillStyle(display, maskContext, FillStippled)
        }
        trace(shape, on: content, with: contentContext)
        trace(shape, on: mask, with: maskContext)
    }

    private func trace(_ shape: OverlayShape, on drawable: Drawable, with context: GC) {
        switch shape {
        case .arc(let center, let radius, let lineWidth, let start, let sweep, _):
            guard sweep > 0, radius > 0 else { return }
            let box = bounds(center: center, radius: radius)
            let whole = sweep >= 1
            XSetLineAttributes(display, context, UInt32(max(1, lineWidth.rounded())), LineSolid,
                               whole ? CapButt : CapRound, JoinRound)
            // Xlib counts angles in 64ths of a degree, counterclockwise from 3 o'clock.
            let degree = 64.0
            let first = Int32(((0.25 - start) * 360 * degree).rounded())
            let extent = Int32((min(sweep, 1) * 360 * degree).rounded())
            XDrawArc(display, drawable, context, box.x, box.y, box.size, box.size, first, -extent)
        case .disc(let center, let radius, _):
            guard radius > 0 else { return }
            let box = bounds(center: center, radius: radius)
            XFillArc(display, drawable, context, box.x, box.y, box.size, box.size, 0, 360 * 64)
        case .label(let text, let center, _):
            guard let font = resources.font, !text.isEmpty else { return }
            var characters = Array(text.utf8CString)
            characters.removeLast()
            let count = Int32(characters.count)
            let width = XTextWidth(font, characters, count)
            let ascent = font.pointee.ascent
            let descent = font.pointee.descent
            let x = Int32((center.x - Double(frame.x)).rounded()) - width / 2
            let baseline = Int32((center.y - Double(frame.y)).rounded()) + (ascent - descent) / 2
            XDrawString(display, drawable, context, x, baseline, characters, count)
        }
    }

    /// The square an arc of `radius` around `center` is inscribed in, in window pixels.
    private func bounds(center: Point, radius: Double) -> (x: Int32, y: Int32, size: UInt32) {
        let diameter = max(1, (2 * radius).rounded())
        let x = (center.x - Double(frame.x) - diameter / 2).rounded()
        let y = (center.y - Double(frame.y) - diameter / 2).rounded()
        return (Int32(x), Int32(y), UInt32(diameter))
    }
}
