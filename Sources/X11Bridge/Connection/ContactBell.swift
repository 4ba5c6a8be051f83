import CX11
import Glibc

/// A second, quiet connection to the X server that hears only contacts beginning and ending:
/// every device's raw button presses and releases and raw touch begins and ends. It lets the
/// event loop leave the main connection unread for a while under a fast stream that needs no
/// promptness (a pen hovering at 1000 Hz) and still read a press the moment it comes.
///
/// The server sends a raw event to every client that selected it on the root window, this one
/// too, whatever grab the bridge holds; and it sends it to both connections in the same pass,
/// after everything that came before it. So when the bell rings, the main connection's socket
/// holds the press and every sample before it, in order (or will within microseconds: the loop
/// then reads the main connection as it comes again, see `EventLoop`). The bell's own events
/// are only a signal: which device they come from is all that is read of them.
final class ContactBell {
    private let xcb: OpaquePointer
    let fileDescriptor: Int32

    /// What rings the bell: the beginnings and ends of contacts, nothing that streams.
    static let events: Set<Int32> = [XI_RawButtonPress, XI_RawButtonRelease, XI_RawTouchBegin, XI_RawTouchEnd]

    /// Opens the bell on `displayName`, listening on `root` (the same server's root window as
    /// the main connection's). Nil when it cannot: the server refused a second connection, or
    /// this connection could not announce XInput 2.2, which raw touch events need. The loop
    /// then does without it (`EventLoop`: shorter lulls).
    init?(displayName: String, root: UInt32) {
        guard let xcb = xcb_connect(displayName, nil) else { return nil }
        guard xcb_connection_has_error(xcb) == 0 else {
            xcb_disconnect(xcb)
            return nil
        }
        self.xcb = xcb
        self.fileDescriptor = xcb_get_file_descriptor(xcb)
        // Raw touch events reach only a client that announced 2.2.
        let version = xcb_input_xi_query_version_reply(xcb, xcb_input_xi_query_version(xcb, 2, 2), nil)
        guard let version, (version.pointee.major_version, version.pointee.minor_version) >= (2, 2) else {
            free(version)
            xcb_disconnect(xcb)
            return nil
        }
        free(version)
        guard select(on: root) else {
            xcb_disconnect(xcb)
            return nil
        }
    }

    deinit {
        xcb_disconnect(xcb)
    }

    /// Selects `events` for every device, checked: one round trip, once.
    private func select(on root: UInt32) -> Bool {
        let mask = XI2EventMask(device: XIAllDevices, events: Self.events).bytes
        // The request's mask list: a device id and the mask's length in 4-byte words, then the
        // mask padded to whole words.
        let words = (mask.count + 3) / 4
        let header = xcb_input_event_mask_t(deviceid: xcb_input_device_id_t(XIAllDevices), mask_len: UInt16(words))
        let request = withUnsafeBytes(of: header) { Array($0) } + mask + [UInt8](repeating: 0, count: words * 4 - mask.count)
        let cookie = request.withUnsafeBytes { buffer in
            xcb_input_xi_select_events_checked(xcb, root, 1, buffer.baseAddress?.assumingMemoryBound(to: xcb_input_event_mask_t.self))
        }
        if let error = xcb_request_check(xcb, cookie) {
            free(error)
            return false
        }
        return true
    }

    /// Reads what came. Whether a contact of a device `listens` names began or ended among it
    /// (the bridge's own clicks and scroll steps come from the XTEST devices, which ring for
    /// nothing); nil when the connection broke (the server went away): the caller stops
    /// listening to the bell, and the main connection notices on its own.
    func take(ringingFor listens: (Int) -> Bool) -> Bool? {
        var rang = false
        while let event = xcb_poll_for_event(xcb) {
            // Only raw input was selected, and every raw event has the same head: a press and
            // a touch's begin alike name their slave device as `sourceid`.
            if event.pointee.response_type & 0x7F == XCB_GE_GENERIC {
                let raw = UnsafeRawPointer(event).load(as: xcb_input_raw_button_press_event_t.self)
                if listens(Int(raw.sourceid)) { rang = true }
            }
            free(event)
        }
        return xcb_connection_has_error(xcb) == 0 ? rang : nil
    }
}
