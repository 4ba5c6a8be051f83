import CLinux
import Glibc

/// The terminal the bridge was started from, if any: a SIGHUP is a reload for a bridge run
/// as a service or by the session, but for one run in a terminal it also comes as that
/// terminal closes (its window, an ssh connection lost), and then the person expects it to
/// stop, not to go on unseen. Found in review: it went on acting with nowhere to say so, and
/// the next `run` was told another one ran.
public struct ControllingTerminal: Sendable {
    /// Whether the process had a controlling terminal when this was made.
    public let atStart: Bool
    /// The process that started it: a terminal emulator running it as its command (`xterm -e`)
    /// is, and sends it SIGHUP itself as its window closes.
    public let parent: pid_t

    /// Whether SIGHUP was set to be ignored when the bridge started, as `nohup` sets it: the
    /// person asked it to outlive its terminal. (Blocked to be read from a signalfd, a SIGHUP
    /// still arrives, whatever the disposition.) Found in review of a terminal's life: under
    /// `nohup`, closing the terminal stopped the bridge.
    public let hangUpIgnored: Bool

    /// Asked now, as the bridge starts.
    public init() {
        atStart = Self.isOpen
        parent = getppid()
        hangUpIgnored = gesture_bridge_signal_ignored(SIGHUP) != 0
    }

    /// Whether a terminal the bridge had is gone (its session lost it: `/dev/tty` no longer
    /// opens). A reload's `kill -HUP` leaves it there.
    public var hungUp: Bool { atStart && !Self.isOpen }

    /// Whether `signal`, a SIGHUP, is the terminal closing: the terminal is gone, and the kernel
    /// sent it as the terminal hung up, or the session's leader passed it on (a shell sends it to
    /// its jobs as its terminal closes). One sent from anywhere else asks for a reload: found in
    /// review, a bridge left running after its terminal closed (`run &`, then `disown` or `exit`)
    /// stopped at the `kill -HUP` meant to reload it.
    /// A terminal emulator whose command the bridge is (`xterm -e gesture-bridge run`) sends it
    /// SIGHUP itself, then closes the terminal, whose own hang-up the kernel merges into the one
    /// waiting: the sender read is the emulator, the bridge's parent (found in review: such a
    /// bridge went on running after its window closed).
    public func closed(by signal: ReceivedSignal) -> Bool {
        guard signal.number == SIGHUP, hungUp, !hangUpIgnored else { return false }
        return signal.sentByKernel || signal.sender == getsid(0) || (parent > 1 && signal.sender == parent)
    }

    private static var isOpen: Bool {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }
}
