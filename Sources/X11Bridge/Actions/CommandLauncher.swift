import Glibc

/// Runs bound commands without a shell and without ever waiting on them in the event loop.
///
/// Each child gets a pidfd that becomes readable when it exits; the loop polls it and the
/// child is reaped then. Where pidfds are missing (Linux before 5.3) the children are reaped
/// with WNOHANG on a slow timer. Children run in their own process group, so Ctrl-C in the
/// bridge's terminal does not take a launched program with it, and their standard output
/// goes to the bridge's standard error, where it cannot corrupt the `--json` stream. A child
/// that exits with a non-zero status or is killed by a signal is reported through `report`.
public final class CommandLauncher {
    private var watched: [Int32: pid_t] = [:]
    private var unwatched: Set<pid_t> = []
    /// The program each running child was started as, for the report of how it ended.
    private var programs: [pid_t: String] = [:]
    private var lastSweep = 0.0
    private let report: (String) -> Void

    /// How often children without a pidfd are looked at, in seconds.
    static let sweepInterval = 1.0

    public init(report: @escaping (String) -> Void = { _ in }) {
        self.report = report
    }

    public var runningCount: Int { watched.count + unwatched.count }

    public func launch(_ argv: [String], now: Double) throws(ActionFailure) {
        let pid = try Self.spawn(argv, output: nil)
        programs[pid] = argv.first ?? "a command"
        if let descriptor = Self.exitDescriptor(for: pid) {
            watched[descriptor] = pid
        } else {
            unwatched.insert(pid)
            if unwatched.count == 1 { lastSweep = now }
        }
    }

    public var descriptors: [Int32] { Array(watched.keys) }

    /// Starts `argv` without a shell, in its own process group, with the signal mask and
    /// dispositions a fresh program expects and standard input from /dev/null. Standard output
    /// and error go to `output` when given, else both to the bridge's standard error.
    /// `environment` entries (`NAME=value`) replace the bridge's own environment when given.
    static func spawn(_ argv: [String], output: Int32?, environment: [String]? = nil) throws(ActionFailure) -> pid_t {
        guard let program = argv.first, !program.isEmpty else {
            throw ActionFailure("a command needs a program to run (argv is empty)")
        }
        var arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var variables: [UnsafeMutablePointer<CChar>?] = (environment ?? []).map { strdup($0) } + [nil]
        defer { for variable in variables { free(variable) } }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        // The bridge blocks its signals to read them from a signalfd; a child must not inherit that.
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0)
        if let output {
            posix_spawn_file_actions_adddup2(&files, output, 1)
            posix_spawn_file_actions_adddup2(&files, output, 2)
        } else {
            posix_spawn_file_actions_adddup2(&files, 2, 1)
        }
        // Descriptors the bridge opened without close-on-exec must not outlive it in a child.
        _ = LinuxCalls.spawnCloseFrom?(&files, 3)

        var pid: pid_t = 0
        let status = environment == nil
            ? posix_spawnp(&pid, program, &files, &attributes, &arguments, environ)
            : posix_spawnp(&pid, program, &files, &attributes, &arguments, &variables)
        guard status == 0 else {
            let reason = String(cString: strerror(status))
            throw ActionFailure("cannot run \(program): \(reason)\(status == ENOENT ? " (not found in PATH)" : "")")
        }
        return pid
    }

    /// A pidfd that becomes readable when the child exits (close-on-exec), or nil where the
    /// kernel or C library has none.
    static func exitDescriptor(for pid: pid_t) -> Int32? {
        guard let open = LinuxCalls.pidfdOpen, case let descriptor = open(pid, 0), descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }

    /// A child's pidfd became readable: it has exited.
    public func descriptorReady(_ descriptor: Int32) {
        guard let pid = watched.removeValue(forKey: descriptor) else { return }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped(pid, status: status) }
        close(descriptor)
    }

    private func reaped(_ pid: pid_t, status: Int32) {
        let program = programs.removeValue(forKey: pid) ?? "a command"
        let exit = ChildExit(waitStatus: status)
        if !exit.succeeded {
            report("command \(program) (pid \(pid)) \(exit)")
        }
    }

    public var nextDeadline: Double? {
        unwatched.isEmpty ? nil : lastSweep + Self.sweepInterval
    }

    public func tick(now: Double) {
        guard !unwatched.isEmpty, now >= lastSweep + Self.sweepInterval else { return }
        lastSweep = now
        for pid in unwatched {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { reaped(pid, status: status) }
            if result != 0 {
                unwatched.remove(pid)
                programs[pid] = nil
            }
        }
    }

    /// Stops watching; children still running finish on their own (init reaps them).
    public func shutdown() {
        for (descriptor, pid) in watched {
            var status: Int32 = 0
            _ = waitpid(pid, &status, WNOHANG)
            close(descriptor)
        }
        watched.removeAll()
        unwatched.removeAll()
        programs.removeAll()
    }
}
