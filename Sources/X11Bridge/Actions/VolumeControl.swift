import Glibc
import GestureKit

/// What came of volume changes, for the bridge to show or log.
public enum VolumeReport: Sendable, Hashable {
    /// The default output's level as read back, 0...1 (above 1 only if something else
    /// turned it past 100%).
    case level(Double)
    /// The default output is muted, as read back (wpctl says so; pactl's read does not): its
    /// level says nothing of what is heard.
    case muted
    /// The change asked for by `event` could not be made.
    case failed(ActionEvent, ActionFailure)
}

/// Changes the default sound output's volume through `pactl` (PulseAudio, and PipeWire's
/// PulseAudio layer) or, failing that, `wpctl` (PipeWire), without a shell and without ever
/// waiting in the event loop (`VolumeTool` says why in that order).
///
/// One tool runs at a time. Changes asked for while it runs wait and are merged (ten knob
/// steps of +5% become one +50%), so a fast turn costs a few processes, not dozens. Each
/// change reads the level first and goes no higher than 100%, each merged step as it would
/// alone; the level read after a change is reported, and is where the next change starts. A
/// change that raises the volume (even at 100%, where the level goes no higher), or sets a
/// level, unmutes a muted output first, as a desktop's volume-up key does (always with pactl,
/// whose read does not say whether it is muted). The first tool that answers is kept while
/// changes follow one another. A read begun with no tool running tries the tools from the first
/// again, except within `firstToolRetryDelay` (a minute) of a tool's failure: then the tool that
/// answered since is used, so a pactl that hangs costs one timeout a minute, not one a turn.
/// When none answers, the failure is reported once until one answers again.
///
/// It keeps no clock of its own: times come from the caller. A tool started as another's exit
/// descriptor is read, which brings no time, is timed from the next `tick`, due at once.
public final class VolumeControl {
    /// The level no change goes above: 100%, no overdrive.
    public static let ceiling = VolumeCommand.ceiling

    /// A tool running.
    private struct Child {
        let process: Subprocess
        let output: Int32
        let tool: VolumeTool
        /// When it is killed and given up on; nil until a time is given after it started (it
        /// started on a descriptor, which comes without one).
        var deadline: Double?
        var killed = false
    }

    private struct Pending {
        var change: VolumeChange
        /// The first action that asked for it, named when it fails.
        var event: ActionEvent
    }

    /// What a read is for, carried from tool to tool while they are tried in turn.
    private struct Errand {
        /// The changes made once the level is known, in order.
        var waiting: [Pending] = []
        /// Named when the read fails, before any waiting change: a plain read's asker.
        var asker: ActionEvent?
        /// What the tools tried before this one said.
        var problems: [String] = []
    }

    /// What the control is doing.
    private enum Activity {
        /// No tool runs and no change waits.
        case idle
        /// A tool reads the level.
        case reading(Child, Errand)
        /// A tool makes `change`; the level is read again after it (unless `rereads` is false:
        /// an unmute made for the raise that waits first), then `waiting` are made.
        case changing(Child, Pending, waiting: [Pending], rereads: Bool)

        var child: Child? {
            switch self {
            case .idle: return nil
            case .reading(let child, _), .changing(let child, _, _, _): return child
            }
        }

        func with(_ child: Child) -> Activity {
            switch self {
            case .idle: return .idle
            case .reading(_, let errand): return .reading(child, errand)
            case .changing(_, let change, let waiting, let rereads): return .changing(child, change, waiting: waiting, rereads: rereads)
            }
        }
    }

    private let tools: [VolumeTool]
    private let environment: [String]
    private let timeout: Double
    private var activity = Activity.idle
    /// The latest time the caller gave: what "at once" means to it.
    private var lastTime = 0.0
    /// The tool tried now. A read begun with none running starts from the first again, unless a
    /// tool failed less than `firstToolRetryDelay` ago: then from the one that answered since.
    private var toolIndex = 0
    /// When a tool last failed to read the level, on the caller's clock.
    private var readFailedAt: Double?
    /// The tool that answered the last read; nil after one failed.
    private var answered: VolumeTool?
    private var failureReported = false
    /// Whether a change the working tool refused has been reported since one last succeeded.
    private var refusalReported = false
    private var lastLevel: Double?
    /// Whether the output was muted at the last read; nil when the tool does not say (pactl).
    private var lastMuted: Bool?
    /// A refusal to unmute was said: it is said once until an unmute works, not at every turn of
    /// a knob (each raise still tries: a sink or a sound server come back may take it).
    private var unmuteRefusalSaid = false
    private var reports: [VolumeReport] = []
    /// Tools killed that had not ended yet, reaped as they end (`reapLingering`).
    private var lingering: [Subprocess] = []

    /// How long after a tool failed to read the level the reads begun afresh leave it out and
    /// start from the one that answered instead, in seconds of the caller's clock. A pactl that
    /// hangs (PULSE_SERVER on a host that does not answer, a wedged pipewire-pulse) is waited for
    /// until the timeout, during which a turn of the knob does nothing: a minute between tries
    /// makes that at most one timeout (2 s) a minute of knob use, not one at every turn. A
    /// pipewire-pulse restarted is back in a few seconds, and a minute is still soon enough to
    /// have pactl, and the balance it keeps, again for the next turns.
    public static let firstToolRetryDelay = 60.0

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
    public var tool: VolumeTool? { answered }

    /// Reads the level without changing it (what `gesture-bridge doctor` checks); `event`
    /// is named if it fails.
    public func readLevel(for event: ActionEvent, now: Double) {
        let now = passed(now)
        switch activity {
        case .idle: startAfresh(Errand(asker: event), now: now)
        case .reading, .changing: break
        }
    }

    /// Waits, blocking, until no tool runs or `timeout` seconds have passed on `clock` (the
    /// clock the times given to this control come from), and returns the reports: for commands
    /// that do nothing else meanwhile, never for the bridge's event loop.
    public func waitUntilIdle(timeout: Double, clock: MonotonicClock) -> [VolumeReport] {
        let end = clock.now + timeout
        while isBusy, clock.now < end {
            var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), Int32(Self.pollInterval * 1000))
            for entry in fds where entry.revents != 0 { descriptorReady(entry.fd) }
            tick(now: clock.now)
        }
        return takeReports()
    }

    /// Whether a tool is running or changes wait.
    public var isBusy: Bool {
        switch activity {
        case .idle: return false
        case .reading, .changing: return true
        }
    }

    /// Asks for a change; it is made when the tools already running are done.
    public func request(_ change: VolumeChange, for event: ActionEvent, now: Double) {
        let now = passed(now)
        reapLingering()
        let asked = Pending(change: change, event: event)
        switch activity {
        case .idle:
            startAfresh(Errand(waiting: [asked]), now: now)
        case .reading(let child, var errand):
            errand.waiting.append(asked)
            activity = .reading(child, errand)
        case .changing(let child, let running, var waiting, let rereads):
            waiting.append(asked)
            activity = .changing(child, running, waiting: waiting, rereads: rereads)
        }
    }

    /// What has come of the changes since the last call.
    public func takeReports() -> [VolumeReport] {
        defer { reports.removeAll() }
        return reports
    }

    public var descriptors: [Int32] { activity.child?.process.exitDescriptor.map { [$0] } ?? [] }

    public func descriptorReady(_ descriptor: Int32) {
        guard let child = activity.child, child.process.exitDescriptor == descriptor else { return }
        _ = collect(now: nil)
    }

    /// When to call `tick`: at once while reports wait to be taken (a tool that is not installed
    /// fails before any child runs) or a tool started without a time, else for the running
    /// tool's timeout or exit poll.
    public var nextDeadline: Double? {
        guard let child = activity.child else { return reports.isEmpty ? nil : lastTime }
        guard let deadline = child.deadline else { return lastTime }
        return child.process.exitDescriptor == nil ? min(deadline, lastTime + Self.pollInterval) : deadline
    }

    public func tick(now: Double) {
        let now = passed(now)
        reapLingering()
        if let child = activity.child, child.process.exitDescriptor == nil, collect(now: now) { return }
        guard let now, var child = activity.child else { return }
        if let deadline = child.deadline {
            guard now >= deadline else { return }
            // Killed, and not waited for: a tool stuck in the kernel (a home folder on a server
            // that does not answer) does not end even then. Found in review of audio setups:
            // waited for, its deadline stayed in the past, and the event loop spun at full CPU
            // with the knob stuck until the tool ended.
            child.process.signal(SIGKILL)
            child.killed = true
            activity = activity.with(child)
            _ = collect(now: now, givingUp: true)
            return
        }
        child.deadline = now + timeout
        activity = activity.with(child)
    }

    /// Stops waiting for a running tool (it is killed) and drops the changes still waiting.
    /// Waits a moment for the killed tools to end, never longer.
    public func shutdown() {
        let stopped = activity
        activity = .idle
        if let child = stopped.child {
            child.process.signal(SIGKILL)
            lingering.append(child.process)
            close(child.output)
        }
        for _ in 0..<50 where !lingering.isEmpty {
            reapLingering()
            if !lingering.isEmpty { usleep(10_000) }
        }
    }

    /// Forgets the killed tools that have ended.
    private func reapLingering() {
        lingering.removeAll { $0.reap() != .running }
    }

    // MARK: Running the tools

    /// Takes note of the caller's time; nil if it is no time (not finite).
    private func passed(_ now: Double) -> Double? {
        guard now.isFinite else { return nil }
        lastTime = now
        return now
    }

    private enum LaunchFailure: Error {
        /// The tool is missing or would not start: the next one may do.
        case tool(String)
        /// Nothing could run: no pipe for the output.
        case pipe(ActionFailure)
    }

    /// Starts `tool` with `arguments` (the first replaced by where it is installed), its output
    /// on a pipe. `now` dates its timeout; without it the next tick does.
    private func launch(_ tool: VolumeTool, _ arguments: [String], now: Double?) throws(LaunchFailure) -> Child {
        guard let program = location(of: tool) else { throw .tool("\(tool.rawValue) is not installed") }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .pipe(ActionFailure("cannot run \(tool.rawValue): no pipe for its output: \(String(cString: strerror(errno)))"))
        }
        defer { close(ends[1]) }
        // Neither end may leak into other children (the write end is given to this one as 1 and 2).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        do {
            let process = try Subprocess([program] + arguments.dropFirst(), environment: environment,
                                         output: ends[1], error: ends[1])
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
            return Child(process: process, output: ends[0], tool: tool, deadline: now.map { $0 + timeout })
        } catch {
            close(ends[0])
            throw .tool(error.message)
        }
    }

    /// Reads the level for `errand` with no tool running: with the tool that answered last while
    /// one failed less than `firstToolRetryDelay` ago, else from the first tool. One that failed
    /// may answer again (PipeWire's PulseAudio layer restarting, a pactl that hung once), and the
    /// one after it, wpctl, sets every channel alike: kept for the rest of the session, it would
    /// flatten a balance at every step. But tried again at every turn of the knob, a pactl that
    /// hangs would hold each turn for the timeout. The steps of a fast turn, which come while a
    /// tool runs, keep the tool that answered. A time before the failure (a clock that went back)
    /// tries the first tool at once.
    private func startAfresh(_ errand: Errand, now: Double?) {
        let time = now ?? lastTime
        let failedLately = readFailedAt.map { ($0..<$0 + Self.firstToolRetryDelay).contains(time) } ?? false
        // Else the tool that answered since stays (or the first, if none did: a failure said resets it).
        if !failedLately { toolIndex = 0 }
        startRead(errand, now: now)
    }

    /// Reads the level with the current tool, for `errand`.
    private func startRead(_ errand: Errand, now: Double?) {
        let tool = tools[toolIndex]
        do {
            activity = .reading(try launch(tool, tool.readArguments, now: now), errand)
        } catch {
            switch error {
            case .tool(let problem): readFailed(problem, errand, now: now)
            case .pipe(let failure): finishFailed(failure, errand)
            }
        }
    }

    /// With a fresh level read, makes the next waiting change, or stops when there is none.
    private func startNextChange(_ waiting: [Pending], now: Double?) {
        var waiting = waiting
        while let next = waiting.first {
            // Steps that waited one after another are made by one run of the tool. They are kept
            // apart until the level is known, each then stopping at 0 or 100% as it would alone:
            // added up first, at 90% four steps up and two down ended at 100%, not 90%.
            let steps = Self.leadingSteps(waiting)
            let taken = max(1, steps.count)
            let tool = tools[toolIndex]
            // Turned up while muted (or maybe muted: pactl's read does not say), the output is
            // unmuted first, and the raise made at once after it, from the level read. At 100%
            // the raise itself changes nothing, but it still asks to be heard.
            let raises = steps.isEmpty ? next.change.raises : steps.contains { $0 > 0 }
            let unmuting = raises && lastMuted != false
            let command = steps.isEmpty ? VolumeCommand(next.change, from: lastLevel ?? 0)
                : VolumeCommand.steps(steps, from: lastLevel ?? 0)
            let made: Pending, sent: VolumeCommand, after: [Pending]
            if unmuting {
                (made, sent, after) = (Pending(change: .unmute, event: next.event), .mute("0"), waiting)
            } else if let command {
                (made, sent, after) = (next, command, Array(waiting.dropFirst(taken)))
            } else {
                waiting.removeFirst(taken)
                continue
            }
            do {
                activity = .changing(try launch(tool, tool.arguments(for: sent, level: lastLevel), now: now), made,
                                     waiting: after, rereads: !unmuting)
            } catch {
                switch error {
                case .tool(let problem) where unmuting:
                    // The raise is made all the same.
                    unmuteRefused(made, problem)
                    lastMuted = false
                    continue
                case .tool(let problem):
                    reportRefusal(of: made, problem)
                    startRead(Errand(waiting: after), now: now)
                case .pipe(let failure): finishFailed(failure, Errand(waiting: after, asker: next.event))
                }
            }
            return
        }
        activity = .idle
    }

    /// The steps (`.adjust`) at the front of `waiting`, up to the first change of another kind.
    private static func leadingSteps(_ waiting: [Pending]) -> [Int] {
        var steps: [Int] = []
        for pending in waiting {
            guard case .adjust(let percent) = pending.change else { break }
            steps.append(percent)
        }
        return steps
    }

    /// Reaps the running tool if it has exited and goes on with what its output says; whether it had.
    /// `givingUp`: the tool was killed, and is done with whether it ended or not (`tick`).
    private func collect(now: Double?, givingUp: Bool = false) -> Bool {
        let finished = activity
        guard let child = finished.child else { return false }
        let status = child.process.reap()
        if status == .running {
            guard givingUp else { return false }
            lingering.append(child.process)
        }
        activity = .idle
        let text = Self.drain(child.output)
        close(child.output)
        let succeeded = if case .ended(let exit) = status { exit.succeeded } else { false }
        let firstLine = text.split(separator: "\n").first.map { $0.split(separator: " ").joined(separator: " ") } ?? ""
        let problem = child.killed ? "\(child.tool.rawValue) did not answer within \(timeout) s"
            : firstLine.isEmpty ? "\(child.tool.rawValue) failed" : "\(child.tool.rawValue): \(firstLine)"
        switch finished {
        case .idle:
            return true
        case .reading(_, let errand):
            guard succeeded else {
                readFailed(problem, errand, now: now)
                return true
            }
            guard let level = child.tool.level(in: text) else {
                readFailed("\(child.tool.rawValue) printed no volume I can read: \(firstLine)", errand, now: now)
                return true
            }
            answered = child.tool
            failureReported = false
            lastLevel = level
            lastMuted = child.tool.muted(in: text)
            reports.append(lastMuted == true ? .muted : .level(level))
            startNextChange(errand.waiting, now: now)
        case .changing(_, let change, let waiting, let rereads):
            if succeeded {
                refusalReported = false
                if !rereads { unmuteRefusalSaid = false }
            } else if rereads {
                reportRefusal(of: change, problem)
            } else {
                unmuteRefused(change, problem)
            }
            if rereads {
                startRead(Errand(waiting: waiting), now: now)
            } else {
                // The unmute made (or refused) for the raise waiting first: the raise now, from
                // the level read before it.
                lastMuted = false
                startNextChange(waiting, now: now)
            }
        }
        return true
    }

    /// The working tool refused the unmute made for a raise: says so, once until one works.
    private func unmuteRefused(_ change: Pending, _ problem: String) {
        if !unmuteRefusalSaid { reportRefusal(of: change, problem) }
        unmuteRefusalSaid = true
    }

    /// The working tool refused `change`: says so, once until a change works.
    private func reportRefusal(of change: Pending, _ problem: String) {
        if !refusalReported { reports.append(.failed(change.event, ActionFailure(problem))) }
        refusalReported = true
    }

    /// The current tool could not read the level: the next one not yet tried for `errand` tries
    /// (after the last, the first: a read may begin past a tool that failed before), or the
    /// failure is reported.
    private func readFailed(_ problem: String, _ errand: Errand, now: Double?) {
        var errand = errand
        errand.problems.append(problem)
        answered = nil
        readFailedAt = now ?? lastTime
        if errand.problems.count < tools.count {
            toolIndex = (toolIndex + 1) % tools.count
            startRead(errand, now: now)
            return
        }
        toolIndex = 0
        // A sound server that answers with no output to change (found in review of audio
        // setups: a USB DAC unplugged, an HDMI output gone with its monitor asleep, was told to
        // start a sound server). Their words under LC_ALL=C, as the tools are run.
        if errand.problems.contains(where: { $0.contains("No such entity") || $0.contains("is not a valid ID") }) {
            finishFailed(ActionFailure("\(errand.problems.joined(separator: "; ")). The sound server has no output device now"
                + " (one unplugged, or an HDMI output gone while its monitor sleeps): the volume changes once there is one"), errand)
            return
        }
        // Either tool will do; a machine with ALSA alone (no sound server) has none to ask.
        // Where they are installed (but could not start, or failed), installing them is no
        // advice (found in review of a machine at its process limit).
        let tried = tools.map(\.rawValue).joined(separator: " or ")
        let install = tools.contains { location(of: $0) == nil }
            ? ": wpctl comes with PipeWire (wireplumber), pactl with pulseaudio-utils" : ""
        finishFailed(ActionFailure("\(errand.problems.joined(separator: "; ")). Changing the volume needs \(tried)"
            + " with a sound server running in this session (PipeWire or PulseAudio; ALSA alone has none)\(install)"), errand)
    }

    /// Reports `failure` (once, until a tool answers again) and drops the waiting changes.
    private func finishFailed(_ failure: ActionFailure, _ errand: Errand) {
        activity = .idle
        guard let event = errand.asker ?? errand.waiting.first?.event else { return }
        if !failureReported {
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
