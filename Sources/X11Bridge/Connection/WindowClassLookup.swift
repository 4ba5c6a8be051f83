import CX11
import GestureKit
import Glibc

extension XConnection {
    /// The WM_CLASS of the application window at a root position, for per-application bindings.
    ///
    /// Follows the windows under the point from the root down: a top-level window, or a
    /// window manager's frame and the application's window inside it. The application's
    /// window is the one the window manager marked with WM_STATE (ICCCM), as `xprop` finds it:
    /// a frame can carry a WM_CLASS of its own (i3's `i3-frame`), and a frame can hold hidden
    /// windows above the one shown. On the frame itself (its title bar, its borders) the
    /// application is the one shown inside it. Without a window manager nothing has WM_STATE:
    /// the first window on the way with a WM_CLASS is the application's. Windows can vanish
    /// while this looks, so errors are caught here instead of reaching the event loop.
    public func windowClass(at point: Point) -> WindowClass? {
        var found: WindowClass?
        _ = checked {
            let x = Int32(point.x.rounded(.down))
            let y = Int32(point.y.rounded(.down))
            let wmState = XInternAtom(display, "WM_STATE", 1)
            var window = root
            var topLevel: Window?
            var firstClass: WindowClass?
            for _ in 0...Self.frameDepth {
                var childX: Int32 = 0
                var childY: Int32 = 0
                var child: Window = 0
                // The mapped child of `window` that contains the point, if any.
                guard XTranslateCoordinates(display, root, window, x, y, &childX, &childY, &child) != 0, child != 0 else { break }
                window = child
                if topLevel == nil { topLevel = child }
                let own = classHint(of: window)
                if wmState != 0, hasProperty(wmState, on: window) {
                    found = own
                    return
                }
                if firstClass == nil { firstClass = own }
            }
            if wmState != 0, let topLevel, let client = shownClient(in: topLevel, marked: wmState, depth: 0) {
                found = classHint(of: client)
                return
            }
            found = firstClass
        }
        return found
    }

    /// The window marked `wmState` shown inside `window` (itself, or a mapped window below it,
    /// the topmost first), as a point on a frame's title bar belongs to the application inside.
    private func shownClient(in window: Window, marked wmState: Atom, depth: Int) -> Window? {
        if hasProperty(wmState, on: window) { return window }
        guard depth < Self.frameDepth else { return nil }
        var rootReturn: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, window, &rootReturn, &parent, &children, &count) != 0, let children else { return nil }
        defer { XFree(children) }
        // Listed bottom to top: the one shown on top is last.
        for index in stride(from: Int(count) - 1, through: 0, by: -1) {
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(display, children[index], &attributes) != 0, attributes.map_state == IsViewable else { continue }
            if let found = shownClient(in: children[index], marked: wmState, depth: depth + 1) { return found }
        }
        return nil
    }

    /// Frames nest the application window one or two levels down (a reparenting window
    /// manager's frame, a decoration window); deeper is the application's own widgets.
    private static let frameDepth = 3

    private func hasProperty(_ property: Atom, on window: Window) -> Bool {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(display, window, property, 0, 0, 0, Atom(AnyPropertyType), &type, &format, &count, &after, &data)
        if let data { XFree(data) }
        return status == Success && type != 0
    }

    private func classHint(of window: Window) -> WindowClass? {
        var hint = XClassHint()
        guard XGetClassHint(display, window, &hint) != 0 else { return nil }
        defer {
            if let name = hint.res_name { XFree(name) }
            if let className = hint.res_class { XFree(className) }
        }
        let instance: UnsafeMutablePointer<CChar>? = hint.res_name, className: UnsafeMutablePointer<CChar>? = hint.res_class
        return WindowClass(instance: instance.map { Self.text($0) } ?? "", className: className.map { Self.text($0) } ?? "")
    }

    /// WM_CLASS's bytes as text: UTF-8 where they are (as toolkits write them today), else
    /// Latin-1, the encoding ICCCM gives the property (an older program's `\xC9crit`). Found in
    /// review of other locales: read as UTF-8 alone, such a name became `\u{FFFD}crit`, which
    /// no name in a config could match.
    static func text(_ bytes: UnsafePointer<CChar>) -> String {
        let raw = UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self)
        let buffer = UnsafeBufferPointer(start: raw, count: strlen(bytes))
        return String(validating: buffer, as: UTF8.self) ?? String(String.UnicodeScalarView(buffer.map { Unicode.Scalar($0) }))
    }
}
