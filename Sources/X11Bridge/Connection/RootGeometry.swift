import CX11

/// The root window's size as the server has it now (one round trip). Xlib's own figure is
/// the size when the display was opened: with XCB reading the events, Xlib never sees the
/// root's ConfigureNotify that tells of a monitor added, removed or moved.
enum RootGeometry {
    static func size(display: OpaquePointer, screen: Int32, root: Window) -> (width: Int, height: Int) {
        var parent: Window = 0
        var x: Int32 = 0
        var y: Int32 = 0
        var width: UInt32 = 0
        var height: UInt32 = 0
        var border: UInt32 = 0
        var depth: UInt32 = 0
        guard XGetGeometry(display, root, &parent, &x, &y, &width, &height, &border, &depth) != 0 else {
            return (Int(XDisplayWidth(display, screen)), Int(XDisplayHeight(display, screen)))
        }
        return (Int(width), Int(height))
    }
}
