import CX11
import GestureKit

/// Whether the X server can type a key an action names.
public enum KeyAvailability: Sendable, Hashable {
    /// The name is no X keysym (a typo, or a name from another system).
    case unknownName
    /// A keysym, but not on the keyboard map: the bridge borrows a spare keycode for it.
    case borrowed
    /// On the keyboard map.
    case onKeymap
}

extension XConnection {
    /// Whether a compositor runs on this screen: it announces itself by owning the EWMH
    /// selection `_NET_WM_CM_Sn`.
    public var hasCompositor: Bool {
        XGetSelectionOwner(display, XInternAtom(display, "_NET_WM_CM_S\(screenNumber)", 0)) != 0
    }

    /// The screen's active monitors now (RandR 1.5); none without RandR.
    public var monitors: MonitorLayout {
        RandRMonitors(connection: self).read()
    }

    /// Whether the key named `keysym` (an X keysym name, as `{key: ...}` actions spell it) can be typed.
    public func availability(ofKey keysym: String) -> KeyAvailability {
        let symbol = XStringToKeysym(keysym)
        guard symbol != 0 else { return .unknownName }
        return XKeysymToKeycode(display, symbol) == 0 ? .borrowed : .onKeymap
    }
}
