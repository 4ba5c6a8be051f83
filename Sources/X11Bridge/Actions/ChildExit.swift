import Glibc

/// How a child process ended, from the status `waitpid` gives: decoded when `Subprocess` reaps
/// the commands the bridge runs, its volume tools and the tests' own children.
public enum ChildExit: Sendable, Hashable, CustomStringConvertible {
    case exited(code: Int32)
    case killed(signal: Int32)

    /// WIFEXITED/WEXITSTATUS and WTERMSIG, which Swift does not import (they are macros).
    public init(waitStatus status: Int32) {
        let signal = status & 0x7f
        self = signal == 0 ? .exited(code: (status >> 8) & 0xff) : .killed(signal: signal)
    }

    public var succeeded: Bool { self == .exited(code: 0) }

    /// The status a shell reports: the exit code, or 128 plus the signal.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let code): return code
        case .killed(let signal): return 128 + signal
        }
    }

    public var description: String {
        switch self {
        case .exited(let code):
            return "exited with status \(code)"
        case .killed(let signal):
            let name = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
            return "was killed by signal \(signal) (\(name))"
        }
    }
}
