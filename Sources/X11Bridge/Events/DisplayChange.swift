import CX11
import GestureKit

/// The events besides XI2's that the input listener acts on (the screen, keyboard mapping, monitors and keymap changing), decoded into values.
enum DisplayChange: Sendable, Hashable {
    /// The root window's size, from a ConfigureNotify on it: RandR resized the screen, or
    /// monitors were added, moved or deleted.
    case rootConfigured(ScreenSize)
    /// The keyboard mapping changed (MappingNotify); `refreshKeyboardMapping` passes it on to Xlib.
    case mappingChanged(KeyboardMappingChange)
    /// A pointer button map changed: a device's own (`xinput set-button-map`, XI1
    /// DeviceMappingNotify), or, with no device, the core pointer's (`xmodmap -e "pointer = ..."`,
    /// MappingNotify).
    case buttonMapChanged(device: Int?)
    /// RandR's screen change: a mode, rotation or size change.
    case screenChanged
    /// XKB reported a new keyboard or a changed map; `refreshKeymap` reloads Xlib's.
    case keymapChanged
    /// Another client took a selection `window` owned (`InstanceClaim`).
    case selectionCleared(selection: Atom, window: Window)
    /// The root's X resources (RESOURCE_MANAGER) changed: a desktop's scale (`Xft.dpi`) may have.
    case resourcesChanged
}

/// What a MappingNotify says changed, as Xlib's refresh takes it.
struct KeyboardMappingChange: Sendable, Hashable {
    var request: Int32
    var firstKeycode: Int32
    var count: Int32
}

extension XConnection {
    /// Asks for `window`'s ConfigureNotify (StructureNotifyMask): on the root, the screen's
    /// size and monitor changes; with `properties`, its property changes too, among them the X
    /// resources a desktop's scale setting rewrites (every root property: a status bar's
    /// name, the active window; asked for only where something is drawn or gestures are
    /// measured, both at the desktop's scale).
    func selectStructureChanges(on window: Window, properties: Bool) {
        XSelectInput(display, window, StructureNotifyMask | (properties ? PropertyChangeMask : 0))
    }

    /// Decodes an event the session acts on besides XI2's; nil for any other (a ConfigureNotify
    /// of another window, an XKB event that changes no map). `randr` says which code is its
    /// screen change.
    func decodeSessionEvent(_ event: borrowing XCBEvent, randr: RandRMonitors) -> DisplayChange? {
        // One another client sent (`XSendEvent`, which any client may aim at any window) tells
        // of nothing the server did: found in review, a made-up SelectionClear stopped the
        // bridge as taken over (status 75, which no service restarts), and a made-up root
        // ConfigureNotify of 200x150 moved every click to the top-left corner.
        guard !event.isSynthetic else { return nil }
        switch Int32(event.code) {
        case XCB_CONFIGURE_NOTIFY:
            let configure = event.read(as: xcb_configure_notify_event_t.self).pointee
            guard Window(configure.window) == root else { return nil }
            return .rootConfigured(ScreenSize(width: Double(configure.width), height: Double(configure.height)))
        case XCB_PROPERTY_NOTIFY:
            let property = event.read(as: xcb_property_notify_event_t.self).pointee
            guard Window(property.window) == root, Atom(property.atom) == Atom(XA_RESOURCE_MANAGER) else { return nil }
            return .resourcesChanged
        case XCB_SELECTION_CLEAR:
            let clear = event.read(as: xcb_selection_clear_event_t.self).pointee
            return .selectionCleared(selection: Atom(clear.selection), window: Window(clear.owner))
        case XCB_MAPPING_NOTIFY:
            let mapping = event.read(as: xcb_mapping_notify_event_t.self).pointee
            if Int32(mapping.request) == MappingPointer { return .buttonMapChanged(device: nil) }
            return .mappingChanged(KeyboardMappingChange(request: Int32(mapping.request), firstKeycode: Int32(mapping.first_keycode),
                                                         count: Int32(mapping.count)))
        case let code where UInt8(code) == xinputFirstEvent &+ UInt8(XCB_INPUT_DEVICE_MAPPING_NOTIFY):
            let mapping = event.read(as: xcb_input_device_mapping_notify_event_t.self).pointee
            return Int32(mapping.request) == MappingPointer ? .buttonMapChanged(device: Int(mapping.device_id)) : nil
        case let code where randr.isScreenChange(code: UInt8(code)):
            return .screenChanged
        case let code where xkbEventCode.map({ UInt8(code) == $0 }) == true:
            // The second byte of every XKB event says which one it is.
            let xkbType = event.read(as: UInt8.self).advanced(by: 1).pointee
            return xkbType == XkbNewKeyboardNotify || xkbType == XkbMapNotify ? .keymapChanged : nil
        default:
            return nil
        }
    }

    /// Asks for the button map changes of `devices` (XI1 DeviceMappingNotify, which XI2 has no
    /// event for), in place of those asked for before. An XI1 event class is the device's id
    /// above the event's code. Returns the errors the request caused: a device gone meanwhile
    /// fails it whole. Two round trips.
    func selectButtonMapChanges(of devices: [Int]) -> [XProtocolError] {
        let type = XEventClass(xinputFirstEvent) + XEventClass(XCB_INPUT_DEVICE_MAPPING_NOTIFY)
        var classes = devices.compactMap { id in XEventClass(exactly: id).map { $0 << 8 | type } }
        return checked {
            XSelectExtensionEvent(display, root, &classes, Int32(classes.count))
        }
    }

    /// Keeps Xlib's keysym lookups right after a keymap change (the bridge's own included):
    /// events read through XCB bypass Xlib, which would otherwise refresh them itself.
    func refreshKeyboardMapping(_ change: KeyboardMappingChange) {
        var notify = XMappingEvent()
        notify.type = MappingNotify
        notify.display = display
        notify.request = change.request
        notify.first_keycode = change.firstKeycode
        notify.count = change.count
        XRefreshKeyboardMapping(&notify)
    }
}
