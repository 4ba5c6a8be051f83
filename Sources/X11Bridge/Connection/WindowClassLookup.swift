import CX11
import GestureKit

extension XConnection {
    /// The WM_CLASS of the application window at a root position, for per-application bindings.
    ///
    /// The root's child there is a top-level window, or a window manager's frame around one;
    /// the application's own window is the first in that subtree with WM_CLASS. Windows can
    /// vanish while this looks, so errors are caught here instead of reaching the event loop.
    public func windowClass(at point: Point) -> WindowClass? {
        var found: WindowClass?
        _ = checked {
            var x: Int32 = 0
            var y: Int32 = 0
            var child: Window = 0
            guard XTranslateCoordinates(display, root, root, Int32(point.x.rounded(.down)), Int32(point.y.rounded(.down)),
                                        &x, &y, &child) != 0, child != 0 else { return }
            found = applicationClass(in: child, depth: 0)
        }
        return found
    }

    /// Frames nest the application window one or two levels down; deeper is the application's
    /// own widgets, which have no WM_CLASS of their own.
    private static let frameDepth = 3

    private func applicationClass(in window: Window, depth: Int) -> WindowClass? {
        if let own = classHint(of: window) { return own }
        guard depth < Self.frameDepth else { return nil }
        var rootReturn: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, window, &rootReturn, &parent, &children, &count) != 0, let children else { return nil }
        defer { XFree(children) }
        // Children are listed bottom to top: the visible one is last.
        for index in stride(from: Int(count) - 1, through: 0, by: -1) {
            if let found = applicationClass(in: children[index], depth: depth + 1) { return found }
        }
        return nil
    }

    private func classHint(of window: Window) -> WindowClass? {
        var hint = XClassHint()
        guard XGetClassHint(display, window, &hint) != 0 else { return nil }
        defer {
            if let name = hint.res_name { XFree(name) }
            if let className = hint.res_class { XFree(className) }
        }
        return WindowClass(instance: hint.res_name.map { String(cString: $0) } ?? "",
                           className: hint.res_class.map { String(cString: $0) } ?? "")
    }
}
