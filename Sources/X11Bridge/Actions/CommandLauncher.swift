import Glibc

/// Runs bound commands without a shell and without ever waiting on them in the event loop.
///
/// Each child's exit descriptor (a pidfd) becomes readable when it exits; the loop polls it and
/// the child is reaped then. Where pidfds are missing (Linux before 5.3) the children are reaped
/// on a slow timer. Children run in their own process group (`Subprocess`), and their standard
/// output goes to the bridge's standard error, where it cannot corrupt the `--json` stream. A
/// child that exits with a non-zero status or is killed by a signal is reported through `report`.
///
/// At most `runningLimit` run at once: a command that never ends, bound to a knob turned fast,
/// would otherwise start one more child and hold one more descriptor at every step, until the
/// bridge has none left for the X connection's needs. Past the limit a command is not started,
/// and says so as an action that failed.
public final class CommandLauncher {
    private struct Command {
        let process: Subprocess
        /// What it was started as, and by which binding, for the report of how it ended.
        let argv: [String]
        let binding: String
    }

    private var watched: [Int32: Command] = [:]
    private var unwatched: [pid_t: Command] = [:]
    private var lastSweep = 0.0
    private let report: (CommandFailure) -> Void

    /// How often children without a pidfd are looked at, in seconds.
    static let sweepInterval = 1.0

    public init(report: @escaping (CommandFailure) -> Void = { _ in }) {
        self.report = report
    }

    /// How many commands may run at once.
    public static let runningLimit = 32

    public var runningCount: Int { watched.count + unwatched.count }

    /// Starts `argv`, the command of the binding named `binding`.
    public func launch(_ argv: [String], for binding: String, now: Double) throws(ActionFailure) {
        guard runningCount < Self.runningLimit else {
            // Which bindings' commands still run, and how to end them (found in review: a knob's
            // `sleep` that never ended held every other binding's commands back, unnamed).
            let running = Array(watched.values) + Array(unwatched.values)
            let holders = Dictionary(grouping: running, by: \.binding).map { binding, commands in
                let programs = Set(commands.compactMap(\.argv.first)).sorted().joined(separator: ", ")
                return "\(commands.count) of \(binding) (\(programs))"
            }.sorted().joined(separator: "; ")
            let pids = running.map { String($0.process.pid) }.sorted().joined(separator: " ")
            throw ActionFailure("\(argv.first ?? "the command") was not started: the \(Self.runningLimit) commands "
                                + "gestures started last are all still running: \(holders); `kill \(pids)` ends them")
        }
        let process = try Subprocess(argv, output: 2)
        let command = Command(process: process, argv: argv, binding: binding)
        if let descriptor = process.exitDescriptor {
            watched[descriptor] = command
        } else {
            unwatched[process.pid] = command
            if unwatched.count == 1 { lastSweep = now }
        }
    }

    public var descriptors: [Int32] { Array(watched.keys) }

    /// A child's pidfd became readable: it has exited.
    public func descriptorReady(_ descriptor: Int32) {
        guard let command = watched.removeValue(forKey: descriptor) else { return }
        if case .ended(let exit) = command.process.reap() { ended(command, exit: exit) }
    }

    private func ended(_ command: Command, exit: ChildExit) {
        if !exit.succeeded {
            report(CommandFailure(binding: command.binding, argv: command.argv, pid: command.process.pid, exit: exit))
        }
    }

    public var nextDeadline: Double? {
        unwatched.isEmpty ? nil : lastSweep + Self.sweepInterval
    }

    public func tick(now: Double) {
        guard !unwatched.isEmpty, now >= lastSweep + Self.sweepInterval else { return }
        lastSweep = now
        for (pid, command) in unwatched {
            switch command.process.reap() {
            case .running:
                continue
            case .ended(let exit):
                ended(command, exit: exit)
            case .lost:
                break
            }
            unwatched[pid] = nil
        }
    }

    /// Stops watching; children still running finish on their own (init reaps them).
    public func shutdown() {
        for command in watched.values { command.process.reap() }
        watched.removeAll()
        unwatched.removeAll()
    }
}

/// A command a binding started that ended badly: a non-zero status, or a signal.
public struct CommandFailure: Sendable, Hashable, CustomStringConvertible {
    public var binding: String
    public var argv: [String]
    public var pid: pid_t
    public var exit: ChildExit

    /// "command sh (pid 4242) exited with status 3".
    public var description: String {
        "command \(argv.first ?? "") (pid \(pid)) \(exit)"
    }
}
