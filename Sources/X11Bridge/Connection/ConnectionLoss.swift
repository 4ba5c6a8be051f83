import CX11

/// Notices that the X server went away under an open connection, so the program can stop on
/// its own terms instead of inside Xlib.
///
/// When a connection breaks, Xlib calls the process-wide I/O error handler and then the
/// display's exit handler; both of Xlib's defaults print "X connection to :0 broken" and exit
/// with status 1. The process-wide handler installed here only returns (it keeps no state),
/// and each connection's exit handler gets its own `ConnectionLoss` as user data and raises
/// its flag. From then on Xlib treats the display as dead: requests are dropped and nothing
/// blocks, so the event loop sees the flag and the program exits with `exitStatus`.
public final class ConnectionLoss {
    /// The exit status of a command whose X server connection was lost: EX_UNAVAILABLE from
    /// sysexits.h ("a service is unavailable").
    public static let exitStatus: Int32 = 69

    public let displayName: String
    /// Set once Xlib reported the connection broken; it never becomes usable again.
    public private(set) var isLost = false

    init(displayName: String) {
        self.displayName = displayName
    }

    /// Routes `display`'s I/O errors to this object. It must outlive the display.
    func watch(_ display: OpaquePointer) {
        _ = XSetIOErrorHandler { _ in 0 }
        XSetIOErrorExitHandler(display, { _, data in
            guard let data else { return }
            Unmanaged<ConnectionLoss>.fromOpaque(data).takeUnretainedValue().isLost = true
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// What a person reading the log needs to know, for a program that stops because of it.
    public var message: String {
        "lost the connection to the X server on display \(displayName) (the server exited, crashed or "
            + "closed the connection)"
    }
}
