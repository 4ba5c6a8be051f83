import CX11
import Glibc

/// One event or error as XCB hands it over: a buffer XCB allocated, owned by this value and
/// freed when it goes. Not copyable, so the buffer has exactly one owner.
///
/// The bridge reads its events through XCB rather than Xlib (see `XConnection.nextEvent`):
/// the XCB structs are read in place, where Xlib would convert every event into its own
/// structures and copy XI2 events once more into an allocated cookie.
public struct XCBEvent: ~Copyable {
    let pointer: UnsafeMutablePointer<xcb_generic_event_t>

    init(taking pointer: UnsafeMutablePointer<xcb_generic_event_t>) {
        self.pointer = pointer
    }

    deinit {
        free(pointer)
    }

    /// The event code, without the bit that marks events sent by another client.
    public var code: UInt8 { pointer.pointee.response_type & 0x7f }

    /// Whether another client made it up (`XSendEvent`): it says nothing of what the server did.
    public var isSynthetic: Bool { pointer.pointee.response_type & 0x80 != 0 }

    /// The serial of the last request the server had processed when it made the event (its
    /// low 32 bits): the event happened after every request with a lower serial took effect.
    public var serial: UInt32 { pointer.pointee.full_sequence }

    /// The buffer read as `type`, for the event code that says it holds one.
    public func read<Event>(as type: Event.Type) -> UnsafePointer<Event> {
        UnsafeRawPointer(pointer).assumingMemoryBound(to: type)
    }
}
