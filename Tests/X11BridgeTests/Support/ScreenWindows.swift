import CX11

/// The root window's children on `display`'s screen, bottom to top, as any X client sees them.
func topLevelWindows(on display: OpaquePointer) -> [Window] {
    var rootReturn: Window = 0
    var parent: Window = 0
    var children: UnsafeMutablePointer<Window>?
    var count: UInt32 = 0
    guard XQueryTree(display, XDefaultRootWindow(display), &rootReturn, &parent, &children, &count) != 0,
          let children else { return [] }
    defer { XFree(children) }
    return (0..<Int(count)).map { children[$0] }
}

/// The class `window` names in its WM_CLASS (`GestureBridge` for the overlay's), nil without one.
func windowClass(of window: Window, on display: OpaquePointer) -> String? {
    var hint = XClassHint()
    guard XGetClassHint(display, window, &hint) != 0 else { return nil }
    defer {
        if let name = hint.res_name { XFree(name) }
        if let windowClass = hint.res_class { XFree(windowClass) }
    }
    return hint.res_class.map { String(cString: $0) }
}
