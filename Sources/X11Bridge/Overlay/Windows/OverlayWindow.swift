import CCairo
import CX11
import GestureKit

/// One feedback window: override-redirect (no window manager frames, places or focuses it)
/// and click-through (an empty input shape sends the pointer to the window beneath).
///
/// Cairo draws it (`OverlayPainter`). On an ARGB visual (only while a compositor runs) its
/// antialiased edges and fades are real alpha, and the window stays unshaped: compositors
/// handle unshaped ARGB windows best (xcompmgr, for one, shows a stale frame after a
/// reshape). On a 24-bit visual it is shaped to what it draws, so nothing but the drawing
/// covers the desktop; edges and fades are dithered into the shape (`OverlayMask`).
///
/// The drawing goes into a pixmap that becomes the window's background: the server repaints
/// exposed parts by itself, so the overlay selects no events and needs no Expose handling in
/// the bridge's event loop.
final class OverlayWindow {
    /// The server-side objects of one incarnation of the window.
    private struct ServerObjects {
        var window: Window
        var content: Pixmap
        /// Cairo's view of `content` (Cairo returns a surface in an error state, not none, when
        /// it cannot make one; drawing on that does nothing).
        var surface: OpaquePointer?
    }

    private(set) var visual: OverlayVisual
    private(set) var frame: ScreenRect
    /// What the window shows, to draw it again after a rebuild.
    private(set) var shapes: [OverlayShape] = []
    private let resources: OverlayResources
    private var objects: ServerObjects
    private var isMapped = false
    private var isDestroyed = false

    private var display: OpaquePointer { resources.display }
    var id: Window { objects.window }

    /// Creates the window unmapped; the first `present` maps it.
    init(resources: OverlayResources, frame: ScreenRect) {
        self.resources = resources
        self.frame = frame
        let visual = resources.visualForNewWindow()
        self.visual = visual
        objects = Self.create(resources: resources, visual: visual, frame: frame)
    }

    private static func create(resources: OverlayResources, visual: OverlayVisual, frame: ScreenRect) -> ServerObjects {
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
        let (content, surface) = canvas(for: window, resources: resources, visual: visual, frame: frame)
        return ServerObjects(window: window, content: content, surface: surface)
    }

    /// The pixmap the window shows as its background, and a Cairo surface drawing into it.
    private static func canvas(for window: Window, resources: OverlayResources, visual: OverlayVisual,
                               frame: ScreenRect) -> (content: Pixmap, surface: OpaquePointer?) {
        let content = XCreatePixmap(resources.display, window, UInt32(frame.width), UInt32(frame.height),
                                    UInt32(visual.depth))
        let surface = cairo_xlib_surface_create(resources.display, content, visual.visual,
                                                Int32(frame.width), Int32(frame.height))
        return (content, surface)
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
        let noShadow: [UInt] = [0]
        for property in resources.shadowProperties {
            noShadow.withUnsafeBytes { bytes in
                _ = XChangeProperty(display, window, property, XA_CARDINAL, 32, PropModeReplace,
                                    bytes.bindMemory(to: UInt8.self).baseAddress, 1)
            }
        }
    }

    /// Moves and resizes the window; the next `present` draws at the new place.
    func move(to newFrame: ScreenRect) {
        guard !isDestroyed, newFrame != frame else { return }
        if newFrame.width != frame.width || newFrame.height != frame.height {
            if let surface = objects.surface { cairo_surface_destroy(surface) }
            XFreePixmap(display, objects.content)
            (objects.content, objects.surface) = Self.canvas(for: objects.window, resources: resources,
                                                             visual: visual, frame: newFrame)
        }
        frame = newFrame
        XMoveResizeWindow(display, objects.window, Int32(newFrame.x), Int32(newFrame.y),
                          UInt32(newFrame.width), UInt32(newFrame.height))
    }

    /// Draws `shapes` (root coordinates) as the window's whole content, and maps the window
    /// the first time: shape first, then map, so no box ever flashes. `raising` puts a mapped
    /// window back on top too (not a pulse's: its right-click's menu opens over it).
    func present(_ shapes: [OverlayShape], raising: Bool = true) {
        guard !isDestroyed else { return }
        self.shapes = shapes
        if let surface = objects.surface, let cairo = cairo_create(surface) {
            cairo_set_operator(cairo, CAIRO_OPERATOR_CLEAR)
            cairo_paint(cairo)
            cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
            OverlayPainter(pass: visual.isTranslucent ? .blended : .opaqueUnderMask, origin: (frame.x, frame.y))
                .paint(shapes, on: cairo)
            cairo_destroy(cairo)
        }
        if let surface = objects.surface { cairo_surface_flush(surface) }
        if !visual.isTranslucent {
            let mask = OverlayMask(shapes, origin: (frame.x, frame.y), width: frame.width, height: frame.height)
            let bitmap = mask.bits.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    XCreateBitmapFromData(display, objects.window, characters.baseAddress,
                                          UInt32(frame.width), UInt32(frame.height))
                }
            }
            XShapeCombineMask(display, objects.window, ShapeBounding, 0, 0, bitmap, ShapeSet)
            XFreePixmap(display, bitmap)
        }
        // Set again each time: the protocol lets a server copy the pixmap when it is set, so
        // drawing into it afterwards alone would not be guaranteed to show.
        XSetWindowBackgroundPixmap(display, objects.window, objects.content)
        if isMapped {
            XClearWindow(display, objects.window)
            // Override-redirect keeps the window manager's hands off, not its other windows
            // from being raised above this one (a click-to-raise window manager raising the
            // window under a touch): back on top with each drawing. Nothing moves if it is.
            if raising { XRaiseWindow(display, objects.window) }
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
        if let surface = objects.surface { cairo_surface_destroy(surface) }
        XDestroyWindow(display, objects.window)
        XFreePixmap(display, objects.content)
    }
}
