import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How often a process has woken, from /proc: each context switch, voluntary or not, is a time
/// it slept and woke. A count that stays put means it sleeps, having read everything it was
/// sent. A count of wakeups, not a timing.
public struct ProcessWakeups: Sendable {
    public let pid: pid_t

    public init(pid: pid_t) {
        self.pid = pid
    }

    /// Times the process was switched out since it started.
    public func count() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        var total = 0
        for line in status.split(separator: "\n") {
            let fields = line.split(separator: ":")
            guard fields.count == 2, fields[0].hasSuffix("ctxt_switches") else { continue }
            total += Int(fields[1].trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return total
    }

    /// Whether the process sleeps now, waiting for something (its state `S` in /proc): not
    /// running, and not runnable either, waiting for a core on a busy machine.
    public func isSleeping() throws -> Bool {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // "pid (comm) S ...": the name may hold spaces and parentheses, the state follows its last ")".
        guard let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first == "S"
    }

    /// Waits until the process has slept `quiet` seconds without waking, looking every
    /// `interval` microseconds. A process that wakes no more because it waits for a core (a busy
    /// machine) is runnable, not asleep: the quiet begins again. False when it still wakes after
    /// `timeout`, or once `isRunning` says it ended.
    public func waitUntilAsleep(quiet: Double, timeout: Double, interval: useconds_t,
                                while isRunning: () -> Bool = { true }) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var last = try count()
        var quietSince = Date()
        while Date() < deadline, isRunning() {
            usleep(interval)
            let now = try count()
            if try now != last || !isSleeping() {
                last = now
                quietSince = Date()
            } else if Date().timeIntervalSince(quietSince) >= quiet {
                return true
            }
        }
        return false
    }
}
