import GestureKit

/// What a recording tells its owner besides the trace lines it writes.
public enum RecorderEvent: Sendable {
    case started(devices: [X11Device])
    /// The first event came while these tablets await their pen: the trace waits for it.
    case awaitingPen([X11Device])
    /// A device that came before the first event (a libinput pen come near): it is in the trace.
    case deviceRecorded(X11Device)
    /// A device plugged in after the header was written: its input is not in the trace.
    case deviceNotRecorded(X11Device)
    /// A device of the header that went away came back (enabled again, or plugged in again
    /// under another id), the same in all the header says of it: recorded again, under the
    /// header's id `as`.
    case deviceBack(X11Device, as: Int)
    case deviceRemoved(X11Device)
    /// Positions after this are on the new screen size; the header keeps the first one.
    case screenResized(ScreenSize)
    case xError(XProtocolError)
    case finished(events: Int)
}
