import CX11
import GestureKit

/// One feedback window: override-redirect (no window manager frames, places or focuses it)
/// and click-through (an empty input shape sends the pointer to the window beneath).
///
/// On a 24-bit visual it is shaped to what it draws, so nothing but the drawing covers the
/// desktop; translucency is dithered into the shape. On an ARGB visual (only while a
/// compositor runs) the alpha does that and the window stays unshaped: compositors handle
/// unshaped ARGB windows best (xcompmgr, for one, shows a stale frame after a reshape).
///
/// The drawing goes into a pixmap that becomes the window's background: the server repaints
/// exposed parts by itself, so the overlay selects no events and needs no Expose handling in
/// the bridge's event loop.
final class OverlayWindow {
    /// The server-side objects of one incarnation of the window.
    private struct ServerObjects {
        var window: Window
        var content: Pixmap
        /// Where the shape is drawn; nil on an ARGB visual.
        var mask: Pixmap?
        var contentContext: GC
        var maskContext: GC?
    }

    private(set) var visual: OverlayVisual
    private(set) var frame: PixelRect
    /// What the window shows, to draw it again after a rebuild.
    private(set) var shapes: [OverlayShape] = []
    private let resources: OverlayResources
    private var objects: ServerObjects
    private var isMapped = false
    private var isDestroyed = false

    private var display: OpaquePointer { resources.display }
    var id: Window { objects.window }

    /// Creates the window unmapped; the first `present` maps it.
    init(resources: OverlayResources, frame: PixelRect) {
        self.resources = resources
        self.frame = frame
        let visual = resources.visualForNewWindow()
        self.visual = visual
        objects = Self.create(resources: resources, visual: visual, frame: frame)
    }

    private static func create(resources: OverlayResources, visual: OverlayVisual, frame: PixelRect) -> ServerObjects {
        let display = resources.display
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = 0
        attributes.border_pixel = 0
        attributes.colormap = visual.colormap
        attributes.event_mask = 0
        // A window of another depth than its parent needs its own border pixel and colormap
        // (BadMatch otherwise); the others are the point of the window.
        let valueMask = UInt(CWOverrideRedirect | CWBackPixel | CWBorderPixel | CWColormap | CWEventMask)
        let window = XCreateWindow(display, resources.root, Int32(frame.x), Int32(frame.y),
                                   UInt32(frame.width), UInt32(frame.height), 0, visual.depth,
                                   UInt32(InputOutput), visual.visual, valueMask, &attributes)
        let noInput = XFixesCreateRegion(display, nil, 0)
        XFixesSetWindowShapeRegion(display, window, ShapeInput, 0, 0, noInput)
        XFixesDestroyRegion(display, noInput)
        describe(window, resources: resources)
        let (content, mask) = pixmaps(for: window, resources: resources, visual: visual, frame: frame)
        let contentContext: GC = XCreateGC(display, content, 0, nil)
        let maskContext = mask.map { bitmap -> GC in XCreateGC(display, bitmap, 0, nil) }
        if let font = resources.font {
            XSetFont(display, contentContext, font.pointee.fid)
            if let maskContext { XSetFont(display, maskContext, font.pointee.fid) }
        }
        return ServerObjects(window: window, content: content, mask: mask,
                             contentContext: contentContext, maskContext: maskContext)
    }

    private static func pixmaps(for window: Window, resources: OverlayResources, visual: OverlayVisual,
                                frame: PixelRect) -> (content: Pixmap, mask: Pixmap?) {
        let width = UInt32(frame.width)
        let height = UInt32(frame.height)
        let content = XCreatePixmap(resources.display, window, width, height, UInt32(visual.depth))
        let mask = visual.isTranslucent ? nil : XCreatePixmap(resources.display, window, width, height, 1)
        return (content, mask)
    }

    /// Names the window for xprop, xwininfo and compositor rules (class "GestureBridge").
    private static func describe(_ window: Window, resources: OverlayResources) {
        let display = resources.display
        XStoreName(display, window, "GestureBridge feedback")
        let windowClass = Array("gesture-bridge\u{0}GestureBridge\u{0}".utf8)
        windowClass.withUnsafeBufferPointer { bytes in
            _ = XChangeProperty(display, window, XA_WM_CLASS, XA_STRING, 8, PropModeReplace,
                                bytes.baseAddress, Int32(bytes.count))
        }
        // Format-32 properties travel as C longs.
        let types: [UInt] = [resources.windowType]
        types.withUnsafeBytes { bytes in
            _ = XChangeProperty(display, window, resources.windowTypeProperty, XA_ATOM, 32, PropModeReplace,
                                bytes.bindMemory(to: UInt8.self).baseAddress, Int32(types.count))
        }
    }

    /// Moves and resizes the window; the next `present` draws at the new place.
    func move(to newFrame: PixelRect) {
        guard !isDestroyed, newFrame != frame else { return }
        if newFrame.width != frame.width || newFrame.height != frame.height {
            XFreePixmap(display, objects.content)
            if let mask = objects.mask { XFreePixmap(display, mask) }
            (objects.content, objects.mask) = Self.pixmaps(for: objects.window, resources: resources,
                                                           visual: visual, frame: newFrame)
        }
        frame = newFrame
        XMoveResizeWindow(display, objects.window, Int32(newFrame.x), Int32(newFrame.y),
                          UInt32(newFrame.width), UInt32(newFrame.height))
    }

    /// Draws `shapes` (root coordinates) as the window's whole content, and maps the window
    /// the first time: shape first, then map, so no box ever flashes.
    func present(_ shapes: [OverlayShape]) {
        guard !isDestroyed else { return }
        self.shapes = shapes
        let width = UInt32(frame.width)
        let height = UInt32(frame.height)
        XSetForeground(display, objects.contentContext, 0)
        XFillRectangle(display, objects.content, objects.contentContext, 0, 0, width, height)
        if let mask = objects.mask, let maskContext = objects.maskContext {
            XSetFillStyle(display, maskContext, FillSolid)
            XSetForeground(display, maskContext, 0)
            XFillRectangle(display, mask, maskContext, 0, 0, width, height)
        }
        for shape in shapes {
            draw(shape)
        }
        if let mask = objects.mask {
            XShapeCombineMask(display, objects.window, ShapeBounding, 0, 0, mask, ShapeSet)
        }
        // Set again each time: the protocol lets a server copy the pixmap when it is set, so
        // drawing into it afterwards alone would not be guaranteed to show.
        XSetWindowBackgroundPixmap(display, objects.window, objects.content)
        if isMapped {
            XClearWindow(display, objects.window)
        } else {
            XMapRaised(display, objects.window)
            isMapped = true
        }
    }

    /// Builds the window again on `newVisual` at the same place, showing what it showed: for
    /// ARGB windows whose compositor has gone, which would otherwise turn into black boxes.
    func rebuild(on newVisual: OverlayVisual) {
        guard !isDestroyed else { return }
        let wasMapped = isMapped
        release()
        visual = newVisual
        objects = Self.create(resources: resources, visual: newVisual, frame: frame)
        isMapped = false
        if wasMapped { present(shapes) }
    }

    /// Unmaps and destroys the window and frees what it drew with.
    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        release()
    }

    private func release() {
        if isMapped { XUnmapWindow(display, objects.window) }
        XDestroyWindow(display, objects.window)
        XFreePixmap(display, objects.content)
        XFreeGC(display, objects.contentContext)
        if let mask = objects.mask { XFreePixmap(display, mask) }
        if let maskContext = objects.maskContext { XFreeGC(display, maskContext) }
    }

    private func draw(_ shape: OverlayShape) {
        let color = shape.color
        if visual.isTranslucent {
            // The alpha is in the pixels; the compositor blends them.
            guard color.alpha > 0 else { return }
            XSetForeground(display, objects.contentContext, visual.format.pixel(for: color))
            trace(shape, on: objects.content, with: objects.contentContext)
            return
        }
        // Without a compositor the alpha decides how many of the shape's pixels the window's
        // shape keeps.
        let level = DitherPattern.level(for: color.alpha)
        guard level > 0, let mask = objects.mask, let maskContext = objects.maskContext else { return }
        XSetForeground(display, objects.contentContext, visual.format.pixel(for: color))
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
        trace(shape, on: objects.content, with: objects.contentContext)
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
