import CX11
import Glibc

/// Notices that the X server went away under an open connection, so the program can stop on
/// its own terms instead of inside Xlib.
///
/// When a connection breaks, Xlib calls the process-wide I/O error handler and then the
/// display's exit handler; Xlib's defaults print "X connection to :0 broken" and exit with
/// status 1. The process-wide handler installed here only returns (it keeps no state), and
/// each connection's exit handler gets its own `ConnectionLoss` as user data and raises its
/// flag. From then on Xlib treats the display as dead: nothing blocks, but what is sent stays
/// in its 16 KiB buffer, and a request that would overflow it crashes inside Xlib. So nothing
/// is sent once the flag is up (the bridge's handling of input and timers, its shutdown and
/// the feedback look first), the event loop sees it, and the program exits with `exitStatus`.
///
/// libX11 before 1.8 has no per-display exit handler, and its I/O error handler must not
/// return; there the handler says which display was lost and exits with `exitStatus` itself.
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
        guard let setExitHandler = Self.setExitHandler else {
            _ = XSetIOErrorHandler { display in
                let name = display.flatMap { XDisplayString($0) }.map { String(cString: $0) } ?? "(unknown)"
                let line = "gesture-bridge: error: \(ConnectionLoss.describe(displayName: name)); "
                    + "exiting with status \(ConnectionLoss.exitStatus)\n"
                _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
                exit(ConnectionLoss.exitStatus)
            }
            return
        }
        _ = XSetIOErrorHandler { _ in 0 }
        setExitHandler(display, { _, data in
            guard let data else { return }
            Unmanaged<ConnectionLoss>.fromOpaque(data).takeUnretainedValue().isLost = true
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// For a break XCB noticed while the bridge read events through it, where Xlib's handlers
    /// are not called.
    func noteBroken() {
        isLost = true
    }

    /// What a person reading the log needs to know, for a program that stops because of it.
    public var message: String { Self.describe(displayName: displayName) }

    static func describe(displayName: String) -> String {
        "lost the connection to the X server on display \(displayName) (the server exited, crashed or "
            + "closed the connection)"
    }

    private typealias ExitHandler = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void
    private typealias SetExitHandler = @convention(c) (OpaquePointer?, ExitHandler?, UnsafeMutableRawPointer?) -> Void

    /// XSetIOErrorExitHandler, libX11 1.8 and later, looked up at run time so the bridge also
    /// builds and runs with an older libX11.
    private static let setExitHandler: SetExitHandler? = {
        // RTLD_DEFAULT is a null handle in glibc: search the libraries already loaded.
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "XSetIOErrorExitHandler") else { return nil }
        return unsafeBitCast(address, to: SetExitHandler.self)
    }()
}
