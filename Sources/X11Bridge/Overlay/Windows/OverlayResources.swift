import CX11
import Glibc
import GestureKit

/// What every overlay window on one screen shares: the display, the visuals, the monitors and
/// the atoms. Lives on the Display's thread, like the windows.
final class OverlayResources {
    let display: OpaquePointer
    /// The serial the overlay's next request will carry: an X error names the request it
    /// answers by it.
    var nextRequestSerial: UInt { XNextRequest(display) }
    let screen: Int32
    let root: Window
    let opaqueVisual: OverlayVisual
    let windowTypeProperty: Atom
    let windowType: Atom
    /// picom's (and compton's) per-window shadow switches, under both the names it has read.
    let shadowProperties: [Atom]
    private let compositorSelection: Atom
    private var translucentVisual: OverlayVisual?
    private var translucentVisualMissing = false
    /// How often, at most, ARGB windows ask whether their compositor is still there: the
    /// question is a round trip, and feedback can be updated at every pen sample.
    let compositorCheckInterval: Double
    private var lastCompositorCheck = -Double.infinity
    /// The root window's bounds and its monitors, read at start and again when the screen
    /// changes (`screenChanged`): placing a window costs no round trip.
    private(set) var rootBounds: ScreenRect
    private(set) var monitors: MonitorLayout
    /// `Xft.dpi` from the RESOURCE_MANAGER property: as Xlib read it when the display opened
    /// (no round trip), then as read again when it changes (`readResources`); nil when unset.
    private(set) var resourceDPI: Double?

    init(display: OpaquePointer, screen: Int32, compositorCheckInterval: Double) throws(OverlayError) {
        let screenCount = XScreenCount(display)
        guard screen >= 0, screen < screenCount else {
            throw .screenOutOfRange(screen: screen, screenCount: screenCount)
        }
        try Self.requireExtensions(display)
        guard let defaultVisual = XDefaultVisual(display, screen) else {
            throw .unsupportedVisual(depth: XDefaultDepth(display, screen))
        }
        let depth = XDefaultDepth(display, screen)
        guard defaultVisual.pointee.class == TrueColor else {
            throw .unsupportedVisual(depth: depth)
        }
        self.display = display
        self.screen = screen
        self.compositorCheckInterval = compositorCheckInterval
        root = XRootWindow(display, screen)
        rootBounds = Self.queryRootBounds(display: display, screen: screen, root: root)
        monitors = RandRMonitors(display: display, root: root).read()
        resourceDPI = DesktopResources.openingDPI(display: display)
        opaqueVisual = OverlayVisual(
            visual: defaultVisual, depth: depth, colormap: XDefaultColormap(display, screen),
            format: PixelFormat(redMask: defaultVisual.pointee.red_mask, greenMask: defaultVisual.pointee.green_mask,
                                blueMask: defaultVisual.pointee.blue_mask))
        // A compositor announces itself by owning this selection (EWMH).
        compositorSelection = XInternAtom(display, "_NET_WM_CM_S\(screen)", 0)
        windowTypeProperty = XInternAtom(display, "_NET_WM_WINDOW_TYPE", 0)
        // Compositors give drag-and-drop icons no fades (picom's and compton's defaults), which
        // is what a ring drawn over everything needs.
        windowType = XInternAtom(display, "_NET_WM_WINDOW_TYPE_DND", 0)
        // Their shadows, though, are on for every type but the desktop's once shadows are on
        // (`picom --shadow`, a config with `shadow = true;`): found in review, the ring and the
        // pulse had a dark square halo about 20 px wide. A window whose shadow property is 0 gets
        // none: `_COMPTON_SHADOW` (picom 9 and compton), `_PICOM_SHADOW` (later picom).
        shadowProperties = [XInternAtom(display, "_COMPTON_SHADOW", 0), XInternAtom(display, "_PICOM_SHADOW", 0)]
    }

    private static func requireExtensions(_ display: OpaquePointer) throws(OverlayError) {
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        var major: Int32 = 5
        var minor: Int32 = 0
        // XFixes answers nothing else until its version has been asked for.
        guard XFixesQueryExtension(display, &eventBase, &errorBase) != 0,
              XFixesQueryVersion(display, &major, &minor) != 0, major >= 2 else {
            throw .extensionMissing(name: "XFIXES (version 2)", purpose: "to let clicks pass through the feedback")
        }
        major = 0
        minor = 0
        guard XShapeQueryExtension(display, &eventBase, &errorBase) != 0,
              XShapeQueryVersion(display, &major, &minor) != 0, (major, minor) >= (1, 1) else {
            throw .extensionMissing(name: "SHAPE (version 1.1)", purpose: "to draw rings without a box around them")
        }
    }

    /// Whether a compositor blends windows right now. Asked for each new window rather than
    /// once: compositors start and stop during a session.
    var compositorIsRunning: Bool {
        lastCompositorCheck = Self.monotonicSeconds()
        return XGetSelectionOwner(display, compositorSelection) != 0
    }

    /// Whether the compositor is found gone; asks the server at most once per
    /// `compositorCheckInterval`, and says false in between.
    func compositorHasLeft() -> Bool {
        guard Self.monotonicSeconds() - lastCompositorCheck >= compositorCheckInterval else { return false }
        return !compositorIsRunning
    }

    private static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// ARGB only when a compositor will blend it: without one an ARGB window shows its
    /// transparent pixels as black.
    func visualForNewWindow() -> OverlayVisual {
        guard compositorIsRunning, let translucent = argbVisual() else { return opaqueVisual }
        return translucent
    }

    /// The root window's size or monitors changed.
    func screenChanged(_ size: ScreenSize, monitors: MonitorLayout) {
        rootBounds = ScreenRect(x: 0, y: 0, width: Int(size.width.rounded()), height: Int(size.height.rounded()))
        self.monitors = monitors
    }

    /// Where feedback centered at `point` may show: the monitor under it (or the nearest),
    /// cut to the root window; the whole root when RandR reports no monitors.
    func visibleArea(at point: Point) -> ScreenRect {
        monitors.visibleArea(at: point, root: rootBounds)
    }

    private static func queryRootBounds(display: OpaquePointer, screen: Int32, root: Window) -> ScreenRect {
        let size = RootGeometry.size(display: display, screen: screen, root: root)
        return ScreenRect(x: 0, y: 0, width: size.width, height: size.height)
    }

    /// Reads RESOURCE_MANAGER from the root again (Xlib's copy is the one it took when the
    /// display opened): the desktop's scale was changed, or set after the bridge started.
    func readResources() {
        resourceDPI = DesktopResources.readDPI(display: display, root: root)
    }

    /// The `Xft.dpi` resource in X resources text (`DesktopResources.dpi(in:)`).
    static func resourceDPI(in resources: String) -> Double? {
        DesktopResources.dpi(in: resources)
    }

    private func argbVisual() -> OverlayVisual? {
        if let translucentVisual { return translucentVisual }
        guard !translucentVisualMissing else { return nil }
        var info = XVisualInfo()
        guard XMatchVisualInfo(display, screen, 32, TrueColor, &info) != 0, let visual = info.visual else {
            translucentVisualMissing = true
            return nil
        }
        let format = PixelFormat.withAlpha(redMask: info.red_mask, greenMask: info.green_mask,
                                            blueMask: info.blue_mask, depth: 32)
        guard format.hasAlpha else {
            translucentVisualMissing = true
            return nil
        }
        let colormap = XCreateColormap(display, root, visual, AllocNone)
        let made = OverlayVisual(visual: visual, depth: 32, colormap: colormap, format: format)
        translucentVisual = made
        return made
    }

    /// Sends the overlay's requests: windows and drawings reach the screen with it.
    func flush() {
        XFlush(display)
    }

    func release() {
        if let translucentVisual { XFreeColormap(display, translucentVisual.colormap) }
        translucentVisual = nil
    }
}
