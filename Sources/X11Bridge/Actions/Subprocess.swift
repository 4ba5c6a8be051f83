import CLinux
import Glibc

/// A program started without a shell: the one place the bridge's commands, its volume tools
/// and the tests' own children are spawned, reaped and their ends decoded (`ChildExit`).
///
/// The child starts with no signal blocked and every signal at its default (the bridge blocks
/// its signals to read them from a signalfd, which a child must not inherit), holds none of its
/// parent's descriptors above standard error, and runs in a process group of its own unless
/// asked otherwise, so Ctrl-C in the bridge's terminal does not take it along. Its exit
/// descriptor, where there is one, is closed when it is let go of; a child still running then
/// goes on by itself.
public final class Subprocess {
    /// How far the child has got, as far as waiting for it tells.
    public enum Status: Sendable, Hashable {
        case running
        case ended(ChildExit)
        /// It cannot be waited for: something else reaped it.
        case lost
    }

    public let pid: pid_t
    /// A pidfd that becomes readable when the child exits (close-on-exec), for a poll loop;
    /// nil where the kernel has none (Linux before 5.3).
    public let exitDescriptor: Int32?
    public private(set) var status = Status.running

    /// Starts `argv`, its program looked up in the PATH when it names no directory.
    /// `environment` entries (`NAME=value`) replace the parent's environment when given.
    /// Standard input reads `input`, else /dev/null; standard output and error go to `output`
    /// and `error`, else to the parent's own.
    public init(_ argv: [String], environment: [String]? = nil, input: Int32? = nil, output: Int32? = nil,
                error: Int32? = nil, ownProcessGroup: Bool = true) throws(ActionFailure) {
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
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        if let input {
            posix_spawn_file_actions_adddup2(&files, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0)
        }
        if let output { posix_spawn_file_actions_adddup2(&files, output, 1) }
        if let error { posix_spawn_file_actions_adddup2(&files, error, 2) }
        // Descriptors opened without close-on-exec must not outlive the parent in a child: a
        // test server's guardian waits for its lifeline pipe to close, which a child would hold.
        _ = LinuxCalls.spawnCloseFrom?(&files, 3)

        var pid: pid_t = 0
        let result = environment == nil
            ? posix_spawnp(&pid, program, &files, &attributes, &arguments, environ)
            : posix_spawnp(&pid, program, &files, &attributes, &arguments, &variables)
        guard result == 0 else {
            throw ActionFailure("cannot run \(program): \(Self.why(program, cannot: result))")
        }
        self.pid = pid
        exitDescriptor = Self.openExitDescriptor(for: pid)
    }

    deinit {
        if let exitDescriptor { close(exitDescriptor) }
    }

    /// Why `program` could not be started, `code` the spawn's error, in words that say what to
    /// change: found in review, a script whose `#!` interpreter is missing read "not found in
    /// PATH", which a path is never looked up in, and one with no `#!` line "Exec format error".
    static func why(_ program: String, cannot code: Int32) -> String {
        let reason = String(cString: strerror(code))
        let named = program.contains("/")
        // Found in review: a program written as for a shell loads (check warns of it), and
        // failed at every gesture with no word of why.
        if code == ENOENT, let first = program.first, first == "~" || first == "$" {
            return "\(reason): the command runs without a shell, so \(first == "~" ? "`~`" : "`$`") is not expanded; name the program with its full path, or run it through a shell ([sh, -c, \"...\"]; `gesture-bridge check` shows the line)"
        }
        switch code {
        case ENOENT where !named:
            return "\(reason) (not found in PATH)"
        case ENOENT where access(program, F_OK) == 0:
            // The file is there: what is missing is the interpreter its first line names.
            let interpreter = Self.interpreter(of: program).map { " \($0)" } ?? ""
            return "the interpreter\(interpreter) its #! line names is not there"
        case ENOEXEC:
            return "\(reason): not a program the system can start (a script needs a #! line naming its interpreter, or run it as [sh, \(program)])"
        // Found in review of a machine short of resources: the bare "Resource temporarily
        // unavailable" named nothing a person could act on.
        case EAGAIN:
            return "\(reason): the system refused another process (your user's limit, `ulimit -u`, or the session's TasksMax is reached: programs left running, commands of gestures that never end among them)"
        case EMFILE, ENFILE:
            return "\(reason): no file descriptor was left to start it with (`ulimit -n`)"
        default:
            return reason
        }
    }

    /// The interpreter a script's `#!` line names; nil when its first bytes are no such line.
    private static func interpreter(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 2, bytes[0] == UInt8(ascii: "#"), bytes[1] == UInt8(ascii: "!") else { return nil }
        let line = bytes[2..<count].prefix { $0 != UInt8(ascii: "\n") }
        let words = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
        return words.first.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Reaps the child if it has ended, without waiting for it.
    @discardableResult
    public func reap() -> Status { waitForStatus(options: WNOHANG) }

    /// Waits until the child has ended and reaps it: never in an event loop.
    @discardableResult
    public func wait() -> Status { waitForStatus(options: 0) }

    /// Sends `signal` while the child has not been reaped (after that, its number may be another's).
    public func signal(_ signal: Int32) {
        guard status == .running else { return }
        _ = kill(pid, signal)
    }

    private func waitForStatus(options: Int32) -> Status {
        guard status == .running else { return status }
        var raw: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &raw, options)
        } while result < 0 && errno == EINTR
        if result == pid {
            status = .ended(ChildExit(waitStatus: raw))
        } else if result < 0 {
            status = .lost
        }
        return status
    }

    private static func openExitDescriptor(for pid: pid_t) -> Int32? {
        let descriptor = gesture_bridge_pidfd_open(pid, 0)
        guard descriptor >= 0 else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }
}
