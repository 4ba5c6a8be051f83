import CLinux
import Glibc

/// Delivers signals as readable data on a descriptor the event loop polls, instead of
/// through a handler that would run in the middle of whatever the loop is doing.
///
/// The signals must be blocked in every thread, which is why `block` belongs at the very
/// start of the program, before anything starts a thread (threads inherit the mask).
public final class SignalDescriptor {
    public let descriptor: Int32
    public let signals: [Int32]

    /// The signals the bridge handles: stop on SIGINT, SIGTERM and SIGQUIT (Ctrl-\\), reload on
    /// SIGHUP. Found in review of a terminal's life: SIGQUIT's default ended the bridge with a
    /// press held back lost, and a debug build's backtracer, waiting on its prompt, left the
    /// bridge's grab freezing every application's pointer.
    public static let bridgeSignals: [Int32] = [SIGINT, SIGTERM, SIGQUIT, SIGHUP]

    /// `run`'s: the bridge's, and SIGTSTP (Ctrl-Z in its terminal), which it lets go of what
    /// it holds for before it stops (`stopAsAsked`): its grab on every master's first button
    /// would otherwise hold each click until it is continued.
    public static let runSignals: [Int32] = bridgeSignals + [SIGTSTP]

    /// Stops the process as SIGTSTP asks, read from the descriptor: the signal sent again with
    /// its default action let through for that moment. Returns once the process is continued
    /// (SIGCONT), or at once where nothing would continue it (an orphaned process group, whose
    /// SIGTSTP the kernel drops).
    public static func stopAsAsked() {
        var set = signalSet([SIGTSTP])
        // Sent while still blocked, it waits with any other that came meanwhile (Ctrl-Z pressed
        // twice), and the two are one: let through, they stop the process once. (Sent after
        // the unblock, the other would stop it first and this one again once continued.)
        raise(SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Blocks exactly `signals` for the calling thread and the threads it starts from now on,
    /// whatever the program that started this one had blocked (a launcher's thread, or
    /// Foundation's `Process`, passes on its mask: found in review of a terminal's life, a
    /// bridge started so ignored Ctrl-C until killed).
    public static func setMask(_ signals: [Int32]) {
        var set = signalSet(signals)
        pthread_sigmask(SIG_SETMASK, &set, nil)
    }

    /// Blocks `signals` for the calling thread and the threads it starts from now on.
    public static func block(_ signals: [Int32]) {
        var set = signalSet(signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Blocks `signals` and opens a descriptor that reads them.
    public init(signals: [Int32]) throws(SignalSetupError) {
        Self.block(signals)
        var set = Self.signalSet(signals)
        let descriptor = signalfd(-1, &set, Int32(SFD_NONBLOCK) | Int32(SFD_CLOEXEC))
        guard descriptor >= 0 else {
            throw SignalSetupError(message: "signalfd failed: \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        self.signals = signals
    }

    deinit {
        close(descriptor)
    }

    /// The signals received since the last read, each once, in the order they first came;
    /// empty when none.
    public func read() -> [ReceivedSignal] {
        var received: [ReceivedSignal] = []
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while withUnsafeMutableBytes(of: &info, { Glibc.read(descriptor, $0.baseAddress, $0.count) }) == size {
            received.append(ReceivedSignal(number: Int32(bitPattern: info.ssi_signo), sender: pid_t(bitPattern: info.ssi_pid),
                                           sentByKernel: info.ssi_code == SI_KERNEL))
        }
        return Self.coalesced(received, by: \.number)
    }

    /// `received` with each signal once, where it first came. The kernel keeps a signal pending
    /// once however often it is sent, but one that comes again just after the read loop took the
    /// first is read in the same loop: Ctrl-Z twice at once would then stop the bridge twice, the
    /// second time once `fg` continued it.
    public static func coalesced(_ received: [Int32]) -> [Int32] {
        coalesced(received, by: \.self)
    }

    static func coalesced<Signal>(_ received: [Signal], by number: KeyPath<Signal, Int32>) -> [Signal] {
        var seen = Set<Int32>()
        return received.filter { seen.insert($0[keyPath: number]).inserted }
    }

    private static func signalSet(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        return set
    }
}

/// A signal read from a `SignalDescriptor`, with who sent it.
public struct ReceivedSignal: Sendable, Hashable {
    public var number: Int32
    /// The process that sent it (0 for the kernel's own).
    public var sender: pid_t
    /// Sent by the kernel itself: a terminal hanging up sends its session's leader SIGHUP so.
    public var sentByKernel: Bool

    public init(number: Int32, sender: pid_t = 0, sentByKernel: Bool = false) {
        self.number = number
        self.sender = sender
        self.sentByKernel = sentByKernel
    }
}
