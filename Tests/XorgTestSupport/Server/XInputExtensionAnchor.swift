import CX11
import Synchronization

private let isAnchored = Mutex(false)
private let threadsInitialized = Mutex(false)

/// Xlib's locks for a process whose tests open displays on several threads at once.
///
/// XInitThreads must come before any other Xlib call: a display opened without it (the start-up
/// probe of one test's server, while another test's thread was turning locking on) has no
/// locks, and two threads on it (a window's reader and the test asking the pointer's state)
/// interleave their requests and replies: the window then finds its connection broken, at
/// random, under load. Every place the test support starts a server calls this first, and a
/// caller that comes second waits until the first has finished.
public enum XlibThreads {
    public static func initialize() {
        threadsInitialized.withLock { done in
            guard !done else { return }
            XInitThreads()
            done = true
        }
    }
}

/// Keeps libXi's process-wide extension record alive for the whole test process.
///
/// libXi frees that record, and sets it to NULL without a lock, when the last display that
/// used XInput closes. With tests running on several threads, one test closing its last XI
/// connection while another opens one crashes in XextAddDisplay, intermittently.
/// One XI connection that is never closed keeps the record alive; once its server stops it is
/// just an idle dead socket, and no request is ever made on it.
/// Every server a test starts (Xorg, Xvfb) anchors before it is handed out, so that the first
/// server of the process calls XInitThreads before any test thread has a display open.
public enum XInputExtensionAnchor {
    /// Call before any XI connection to the server can exist, i.e. before the server is handed out.
    public static func ensure(displayName: String) {
        isAnchored.withLock { anchored in
            guard !anchored else { return }
            XlibThreads.initialize()
            guard let display = XOpenDisplay(displayName) else { return }
            // The flag lives as long as the connection: for the rest of the process.
            let lossFlag = ConnectionLossFlag()
            _ = Unmanaged.passRetained(lossFlag)
            XConnectionLossGuard.protect(display, raising: lossFlag)
            var major: Int32 = 2
            var minor: Int32 = 2
            _ = XIQueryVersion(display, &major, &minor)
            anchored = true
        }
    }
}
