import CX11
import Glibc

/// A second, quiet connection to the X server that hears only contacts beginning and ending:
/// the raw button presses and releases and raw touch begins and ends of the devices the bridge
/// listens to. It lets the event loop leave the main connection unread for a while under a
/// fast stream that needs no promptness (a pen hovering at 1000 Hz) and still read a press the
/// moment it comes.
///
/// The server sends a raw event to every client that selected it on the root window, this one
/// too, whatever grab the bridge holds; and it sends it to both connections in the same pass,
/// after everything that came before it. So when the bell rings, the main connection's socket
/// holds the press and every sample before it, in order (or will within microseconds: the loop
/// then reads the main connection as it comes again, see `EventLoop`). The bell's own events
/// are only a signal and are thrown away unread.
final class ContactBell {
    private let xcb: OpaquePointer
    private let root: UInt32
    let fileDescriptor: Int32
    /// The devices it listens to now.
    private(set) var devices: Set<Int> = []

    /// What rings the bell: the beginnings and ends of contacts, nothing that streams.
    static let events: Set<Int32> = [XI_RawButtonPress, XI_RawButtonRelease, XI_RawTouchBegin, XI_RawTouchEnd]

    /// Opens the bell on `displayName`, listening on `root` (the same server's root window as
    /// the main connection's) to no device yet (`listen`). Nil when it cannot: the server
    /// refused a second connection, or this connection could not announce XInput 2.2, which raw
    /// touch events need. The loop then does without it (`EventLoop`: lulls of a frame).
    init?(displayName: String, root: UInt32) {
        guard let xcb = xcb_connect(displayName, nil) else { return nil }
        guard xcb_connection_has_error(xcb) == 0 else {
            xcb_disconnect(xcb)
            return nil
        }
        self.xcb = xcb
        self.root = root
        self.fileDescriptor = xcb_get_file_descriptor(xcb)
        // Raw touch events reach only a client that announced 2.2.
        let version = xcb_input_xi_query_version_reply(xcb, xcb_input_xi_query_version(xcb, 2, 2), nil)
        guard let version, (version.pointee.major_version, version.pointee.minor_version) >= (2, 2) else {
            free(version)
            xcb_disconnect(xcb)
            return nil
        }
        free(version)
    }

    deinit {
        xcb_disconnect(xcb)
    }

    /// Listens to the contacts of `devices` (the bridge's contact sources: not the XTEST
    /// devices its own clicks and scroll steps come from), and no longer to the others. One
    /// request per device, not checked: a device gone before its request arrives fails that
    /// request alone, and the error is thrown away by `take` with the rest.
    func listen(to devices: Set<Int>) {
        let ringing = XI2EventMask(device: 0, events: Self.events).bytes
        for device in devices.symmetricDifference(self.devices).sorted() {
            // The device's id and its mask's length in 4-byte words, then the mask padded to
            // whole words; an empty mask for a device heard before and not now.
            let mask = devices.contains(device) ? ringing : []
            let words = (mask.count + 3) / 4
            let header = xcb_input_event_mask_t(deviceid: xcb_input_device_id_t(truncatingIfNeeded: device), mask_len: UInt16(words))
            let request = withUnsafeBytes(of: header) { Array($0) } + mask + [UInt8](repeating: 0, count: words * 4 - mask.count)
            request.withUnsafeBytes { buffer in
                _ = xcb_input_xi_select_events(xcb, root, 1, buffer.baseAddress?.assumingMemoryBound(to: xcb_input_event_mask_t.self))
            }
        }
        xcb_flush(xcb)
        self.devices = devices
    }

    /// Waits until the server has taken every request sent so far (its listening is in place).
    /// Events that come meanwhile wait in XCB's queue, where `take` finds them but the
    /// descriptor no longer shows them: so only at start, before anything can ring.
    func confirm() {
        free(xcb_get_input_focus_reply(xcb, xcb_get_input_focus(xcb), nil))
    }

    /// Reads what came: whether a contact began or ended among it (an error from a request
    /// for a device gone meanwhile does not ring); nil when the connection broke (the server
    /// went away): the caller stops listening to the bell, and the main connection notices on
    /// its own.
    func take() -> Bool? {
        var rang = false
        while let event = xcb_poll_for_event(xcb) {
            if event.pointee.response_type & 0x7F == XCB_GE_GENERIC { rang = true }
            free(event)
        }
        return xcb_connection_has_error(xcb) == 0 ? rang : nil
    }
}
