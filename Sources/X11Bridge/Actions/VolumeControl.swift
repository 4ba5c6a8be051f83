import Glibc
import GestureKit

/// What came of volume changes, for the bridge to show or log.
public enum VolumeReport: Sendable, Hashable {
    /// The default output's level as read back, 0...1 (above 1 only if something else
    /// turned it past 100%).
    case level(Double)
    /// The change asked for by `event` could not be made.
    case failed(ActionEvent, ActionFailure)
}

/// Changes the default sound output's volume through `wpctl` (PipeWire) or, failing that,
/// `pactl` (PulseAudio), without a shell and without ever waiting in the event loop.
///
/// One tool runs at a time. Changes asked for while it runs wait and are merged (ten knob
/// steps of +5% become one +50%), so a fast turn costs a few processes, not dozens. Each
/// change reads the level first and goes no higher than 100%; the level read after a change
/// is reported, and is where the next change starts. The first tool that answers is kept;
/// when none does, the failure is reported once until one answers again.
public final class VolumeControl {
    /// The level no change goes above: 100%, no overdrive.
    public static let ceiling = VolumeCommand.ceiling

    private enum Step {
        case read
        case change(VolumeCommand)
    }

    private struct Child {
        var process: Subprocess
        var output: Int32
        var step: Step
        var tool: VolumeTool
        var deadline: Double
        var killed = false
    }

    private struct Pending {
        var change: VolumeChange
        /// The first action that asked for it, named when it fails.
        var event: ActionEvent
    }

    private let tools: [VolumeTool]
    private let environment: [String]
    private let timeout: Double
    private let clock = MonotonicClock()
    /// The caller's clock minus this one's: deadlines are reported on the caller's clock.
    private var clockOffset: Double?
    private var toolIndex = 0
    /// Whether the current tool has answered since it was chosen.
    private var toolAnswered = false
    private var problems: [String] = []
    private var failureReported = false
    /// Whether a change the working tool refused has been reported since one last succeeded.
    private var refusalReported = false
    private var pending: [Pending] = []
    private var child: Child?
    private var lastLevel: Double?
    private var reports: [VolumeReport] = []
    /// Set when the tool runs; the failure of a change names it.
    private var current: Pending?

    /// How often a child is looked at where pidfds are missing, in seconds.
    static let pollInterval = 0.02

    /// `tools` in the order tried; `environment` adds to (or replaces in) the bridge's own
    /// environment for the tools, e.g. `PULSE_SERVER`; a tool that has not answered in
    /// `timeout` seconds is killed.
    public init(tools: [VolumeTool] = VolumeTool.allCases, environment: [String: String] = [:], timeout: Double = 2) {
        self.tools = tools.isEmpty ? VolumeTool.allCases : tools
        self.timeout = timeout
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        // The tools' output is read, so it must not be translated.
        variables["LC_ALL"] = "C"
        for (name, value) in environment { variables[name] = value }
        self.environment = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        searchPath = (variables["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
    }

    /// The directories a tool is looked for in: the tools' PATH, which may differ from the bridge's.
    private let searchPath: [String]

    /// Where `tool` is installed, or nil.
    private func location(of tool: VolumeTool) -> String? {
        searchPath.lazy.filter { !$0.isEmpty }.map { "\($0)/\(tool.rawValue)" }.first { access($0, X_OK) == 0 }
    }

    /// The last level read back, 0...1; nil until one has been read.
    public var level: Double? { lastLevel }

    /// The tool that answered last; nil until one has.
    public var tool: VolumeTool? { toolAnswered ? tools[toolIndex] : nil }

    /// Reads the level without changing it (what `gesture-bridge doctor` checks); `event`
    /// is named if it fails.
    public func readLevel(for event: ActionEvent, now: Double) {
        syncClock(now)
        if child == nil {
            current = Pending(change: .adjust(percent: 0), event: event)
            start(.read)
        }
    }

    /// Waits, blocking, until no tool runs or `timeout` seconds have passed, and returns the
    /// reports: for commands that do nothing else meanwhile, never for the bridge's event loop.
    public func waitUntilIdle(timeout: Double) -> [VolumeReport] {
        let end = clock.now + timeout
        while isBusy, clock.now < end {
            var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), Int32(Self.pollInterval * 1000))
            for entry in fds where entry.revents != 0 { descriptorReady(entry.fd) }
            tick(now: clock.now + (clockOffset ?? 0))
        }
        return takeReports()
    }

    /// Whether a tool is running or changes wait.
    public var isBusy: Bool { child != nil || !pending.isEmpty }

    /// Asks for a change; it is made when the tools already running are done.
    public func request(_ change: VolumeChange, for event: ActionEvent, now: Double) {
        syncClock(now)
        if case .adjust(let percent) = change, let last = pending.last, case .adjust(let waiting) = last.change {
            pending[pending.count - 1].change = .adjust(percent: max(-1000, min(1000, waiting + percent)))
        } else {
            pending.append(Pending(change: change, event: event))
        }
        if child == nil { start(.read) }
    }

    /// What has come of the changes since the last call.
    public func takeReports() -> [VolumeReport] {
        defer { reports.removeAll() }
        return reports
    }

    public var descriptors: [Int32] { child?.process.exitDescriptor.map { [$0] } ?? [] }

    public func descriptorReady(_ descriptor: Int32) {
        guard let running = child, running.process.exitDescriptor == descriptor else { return }
        collect(running, blocking: false)
    }

    /// When to call `tick`: at once while reports wait to be taken (a tool that is not installed
    /// fails before any child runs), else for the running tool's timeout or exit poll.
    public var nextDeadline: Double? {
        let offset = clockOffset ?? 0
        guard let running = child else { return reports.isEmpty ? nil : clock.now + offset }
        if running.process.exitDescriptor == nil { return min(running.deadline, clock.now + Self.pollInterval) + offset }
        return running.deadline + offset
    }

    public func tick(now: Double) {
        syncClock(now)
        guard var running = child else { return }
        if running.process.exitDescriptor == nil {
            collect(running, blocking: false)
            guard child != nil else { return }
        }
        if clock.now >= running.deadline, !running.killed {
            running.process.signal(SIGKILL)
            running.killed = true
            running.deadline = clock.now + timeout
            child = running
        }
    }

    /// Stops waiting for a running tool (it is killed) and drops the changes still waiting.
    public func shutdown() {
        pending.removeAll()
        guard let running = child else { return }
        running.process.signal(SIGKILL)
        collect(running, blocking: true)
    }

    // MARK: Running the tools

    private func syncClock(_ now: Double) {
        if clockOffset == nil, now.isFinite { clockOffset = now - clock.now }
    }

    private func start(_ step: Step) {
        let tool = tools[toolIndex]
        guard let program = location(of: tool) else {
            toolFailed(tool, step: step, problem: "\(tool.rawValue) is not installed")
            return
        }
        var argv: [String]
        switch step {
        case .read: argv = tool.readArguments
        case .change(let command): argv = tool.arguments(for: command, level: lastLevel)
        }
        argv[0] = program
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            finishFailed(ActionFailure("cannot run \(tool.rawValue): no pipe for its output: \(String(cString: strerror(errno)))"))
            return
        }
        defer { close(ends[1]) }
        // Neither end may leak into other children (the write end is given to this one as 1 and 2).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        do {
            let process = try Subprocess(argv, environment: environment, output: ends[1], error: ends[1])
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
            child = Child(process: process, output: ends[0], step: step, tool: tool, deadline: clock.now + timeout)
        } catch {
            close(ends[0])
            toolFailed(tool, step: step, problem: error.message)
        }
    }

    /// Reaps the child if it has exited and goes on with what its output says.
    private func collect(_ running: Child, blocking: Bool) {
        let status = blocking ? running.process.wait() : running.process.reap()
        guard status != .running else { return }
        let text = Self.drain(running.output)
        close(running.output)
        child = nil
        guard !blocking else { return }
        let exited = if case .ended(let exit) = status { exit.succeeded } else { false }
        let firstLine = text.split(separator: "\n").first.map { $0.split(separator: " ").joined(separator: " ") } ?? ""
        guard exited else {
            let problem = running.killed ? "\(running.tool.rawValue) did not answer within \(timeout) s"
                : firstLine.isEmpty ? "\(running.tool.rawValue) failed" : "\(running.tool.rawValue): \(firstLine)"
            toolFailed(running.tool, step: running.step, problem: problem)
            return
        }
        switch running.step {
        case .read:
            guard let level = running.tool.level(in: text) else {
                toolFailed(running.tool, step: running.step,
                           problem: "\(running.tool.rawValue) printed no volume I can read: \(firstLine)")
                return
            }
            toolAnswered = true
            current = nil
            problems.removeAll()
            failureReported = false
            lastLevel = level
            reports.append(.level(level))
            startNextChange()
        case .change:
            current = nil
            refusalReported = false
            start(.read)
        }
    }

    /// With a fresh level read, makes the next waiting change, or stops when there is none.
    private func startNextChange() {
        while !pending.isEmpty {
            let next = pending.removeFirst()
            guard let command = VolumeCommand(next.change, from: lastLevel ?? 0) else { continue }
            current = next
            start(.change(command))
            return
        }
    }

    private func toolFailed(_ tool: VolumeTool, step: Step, problem: String) {
        if case .change = step, toolAnswered {
            // The tool works but refused this change: say so (once, until a change works) and
            // carry on with the next.
            finishFailed(ActionFailure(problem), keepPending: true)
            start(.read)
            return
        }
        problems.append(problem)
        toolAnswered = false
        if toolIndex + 1 < tools.count {
            toolIndex += 1
            start(.read)
            return
        }
        let tried = tools.map(\.rawValue).joined(separator: " and ")
        finishFailed(ActionFailure("\(problems.joined(separator: "; ")). Changing the volume needs \(tried)"
            + " with a sound server running in this session: wpctl comes with PipeWire (wireplumber), pactl with"
            + " pulseaudio-utils"))
        problems.removeAll()
        toolIndex = 0
    }

    /// Reports `failure` (once, until a tool answers again) and drops the waiting changes.
    private func finishFailed(_ failure: ActionFailure, keepPending: Bool = false) {
        let event = current?.event ?? pending.first?.event
        current = nil
        if !keepPending { pending.removeAll() }
        guard let event else { return }
        if keepPending {
            if !refusalReported { reports.append(.failed(event, failure)) }
            refusalReported = true
        } else if !failureReported {
            failureReported = true
            reports.append(.failed(event, failure))
        }
    }

    private static func drain(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65536 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
