import Glibc

/// The terminal the bridge was started from, if any: a SIGHUP is a reload for a bridge run
/// as a service or by the session, but for one run in a terminal it also comes as that
/// terminal closes (its window, an ssh connection lost), and then the person expects it to
/// stop, not to go on unseen. Found in review: it went on acting with nowhere to say so, and
/// the next `run` was told another one ran.
public struct ControllingTerminal: Sendable {
    /// Whether the process had a controlling terminal when this was made.
    public let atStart: Bool

    /// Asked now, as the bridge starts.
    public init() {
        atStart = Self.isOpen
    }

    /// Whether a terminal the bridge had is gone (its session lost it: `/dev/tty` no longer
    /// opens). A reload's `kill -HUP` leaves it there.
    public var hungUp: Bool { atStart && !Self.isOpen }

    private static var isOpen: Bool {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }
}
