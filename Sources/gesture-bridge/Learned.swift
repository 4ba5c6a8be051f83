import ArgumentParser
import GestureKit
import Glibc
import X11Bridge

struct Learned: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show, or forget, the deep-press levels the bridge learned for each device.",
        discussion: """
            `run` learns, per pen and touchscreen, how hard its ordinary taps and strokes and its \
            deliberate presses are, and moves a `threshold: learned` deep press's threshold, \
            release and ordinary levels to fit (the rule is in docs/config.md, installed in \
            share/doc/gesture-bridge). It keeps them in \
            $XDG_STATE_HOME/gesture-bridge/ (~/.local/state/gesture-bridge/), a file per device, \
            kept under its name and, where X gives them, its vendor and product ids \
            ("Wacom Intuos S Pen [056a:0374]"; `devices` shows them). This lists them, from how \
            many contacts, or forgets one device's (--reset with its name, or the name and ids as \
            listed here) or \
            every device's (--reset-all): they start again from the config's levels (one tablet \
            over its other link, cable or Bluetooth, from what that link learned while it is kept), and a device \
            `calibrate --write` marked calibrated learns again once the binding it wrote is gone \
            from the config (a number for `threshold` is never learned). A bridge running (it marks the \
            folder in use, in-use.lock) would write what it has back at its next change or its \
            stop, so while one runs --reset and --reset-all forget nothing: they say which runs \
            and how to stop it, from a shell that cannot reach its display too.

            Examples:
              gesture-bridge learned
              gesture-bridge learned --json
              gesture-bridge learned --reset "Wacom Intuos Pro M Pen stylus"
              gesture-bridge learned --reset-all
            """
    )

    @Flag(help: "One JSON object per device and line.")
    var json = false

    @Option(name: .customLong("reset"), help: ArgumentHelp("Forget what was learned for this device (its name, as `devices` shows it, or its name and ids, as `learned` lists it).", valueName: "device"))
    var resetDevice: String?

    @Flag(help: "Forget what was learned for every device, and remove the state files that could not be read.")
    var resetAll = false

    @Option(help: ArgumentHelp("The state directory instead of $XDG_STATE_HOME/gesture-bridge.", valueName: "directory"), completion: .directory)
    var stateDirectory: String?

    func validate() throws {
        if resetAll, resetDevice != nil {
            throw ValidationError("--reset forgets one device and --reset-all every one: give one of them")
        }
    }

    func run() throws {
        guard let store = stateDirectory.map(LearnedStateStore.init(directory:)) ?? LearnedStateStore.user() else {
            throw CommandFailure("error: neither XDG_STATE_HOME nor HOME is set: there is no learned state")
        }
        // A folder named that is not there is a mistyped name, not a state with nothing learned
        // (found in review of the CLI's errors). The user's own may not exist yet.
        if let named = stateDirectory {
            var status = stat()
            guard stat(named, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                throw CommandFailure("error: --state-directory \(named): no such folder")
            }
        }
        if resetAll || resetDevice != nil {
            if Self.isUsers(store), let running = Self.runningBridge() {
                let process = running.process.map { " (process \($0))" } ?? ""
                throw CommandFailure("""
                    error: a gesture-bridge\(process) is running on display \(running.display): it keeps what it \
                    learned and would write it back at its next change or when it stops, so nothing was \
                    forgotten. Stop it first (`systemctl --user stop gesture-bridge` if the service runs it, \
                    else `pkill -f '[g]esture-bridge run'`), forget, then start it again (`systemctl --user start \
                    gesture-bridge`, or `gesture-bridge run`).
                    """)
            }
            // One running where this display cannot be reached (a shell over ssh, a console,
            // another session of the same user) keeps the state in use all the same.
            // Where locks cannot be asked (a network home without a lock manager), the bridges
            // running as this user on this machine are what is known (found in review of a
            // school lab: the reset was said done, and the bridge wrote it all back).
            if case .unknown(let reason) = store.use(), let process = BridgeProcesses.keepingLearning(in: store.directory).first {
                throw CommandFailure("""
                    error: a gesture-bridge (process \(process)) runs as you, and whether it keeps what it \
                    learned in \(store.directory) cannot be told (locks cannot be taken there: \(reason)): it \
                    would write it back at its next change or when it stops, so nothing was forgotten. Stop it \
                    first (`systemctl --user stop gesture-bridge` if the service runs it, else `pkill -f \
                    '[g]esture-bridge run'`), forget, then start it again.
                    """)
            }
            if store.use() == .inUse {
                throw CommandFailure("""
                    error: a gesture-bridge is running and keeps what it learned in \(store.directory) \
                    (on a display this shell cannot reach): it would write it back at its next change or \
                    when it stops, so nothing was forgotten. Stop it first (`systemctl --user stop \
                    gesture-bridge` if the service runs it, else `pkill -f '[g]esture-bridge run'`), forget, then \
                    start it again.
                    """)
            }
            if let problem = store.load(settingAside: false).unreadable {
                throw CommandFailure("error: cannot read the learned state in \(problem), so nothing was forgotten")
            }
            let kept = store.load(settingAside: false).learning
            let removed = store.reset(device: resetDevice)
            if let resetDevice, removed.isEmpty {
                // A tablet over its other link starts from what it learned over the first, and
                // `devices` and `doctor` show that under this link's ids (found in review).
                if let product = LearningKey.product(of: resetDevice),
                   let other = kept.otherLinkKey(name: LearningKey.name(of: resetDevice), product: product) {
                    throw CommandFailure("error: nothing learned under `\(resetDevice)` itself: it starts from what `\(other)` learned, the same device over its other link (cable or Bluetooth). `--reset \(ShellLine.quoted(other))` forgets that; `--reset \(ShellLine.quoted(LearningKey.name(of: resetDevice)))` forgets both")
                }
                throw CommandFailure("error: nothing learned for `\(resetDevice)` in \(store.directory)")
            }
            for device in removed {
                print(json ? JSONLineEncoder.line(LearnedResetLine(reset: device)) : "forgot what was learned for \(device)")
            }
            if resetAll {
                for path in store.removeDamaged() where !json {
                    print("removed \(path), which could not be read")
                }
            }
            return
        }
        let loaded = Self.read(store)
        if let problem = loaded.unreadable {
            throw CommandFailure("error: cannot read the learned state in \(problem)")
        }
        let devices = loaded.learning.devices.sorted { $0.key < $1.key }
        if devices.isEmpty && !json {
            print("Nothing learned yet (\(store.directory)).")
        }
        for (device, learner) in devices {
            print(json ? Self.json(device: device, learner: learner) : Self.line(device: device, learner: learner))
        }
    }

    /// Whether `store` is the user's, the one a bridge keeps what it learns in.
    private static func isUsers(_ store: LearnedStateStore) -> Bool {
        guard let user = LearnedStateStore.user() else { return false }
        func real(_ path: String) -> String { SymbolicLinks.realPath(path) ?? path }
        return real(store.directory) == real(user.directory)
    }

    /// The bridge running on this display, as its claim says (`InstanceClaim`): its display and
    /// process id. Nil when none runs, or when no X display can be reached to ask (none set, a
    /// Wayland session, a server gone), where no bridge can be running on it either.
    private static func runningBridge() -> (display: String, process: Int?)? {
        guard let name = try? DisplayCheck.displayName(environment: ProcessEnvironment.current),
              let connection = try? XConnection.open(name: name, requirements: .init(xtest: false)) else { return nil }
        defer { connection.close() }
        return InstanceClaim.runningBridge(on: connection).map { (connection.displayName, $0.process) }
    }

    static func json(device: String, learner: HandLearner) -> String {
        JSONLineEncoder.line(LearnedStateLine(device: device, learner: learner))
    }

    /// One readable line: what `learned` says of a device.
    static func line(device: String, learner: HandLearner) -> String {
        "\(device): " + summary(learner)
    }

    /// What was learned for a device and from how many contacts, without its name: what
    /// `learned`, `devices` and `doctor` say; "nothing learned yet" when nothing is kept, or
    /// too few ordinary contacts for the levels to move.
    static func summary(_ learner: HandLearner?) -> String {
        guard let learner else { return "nothing learned yet" }
        let counts = "from \(learner.ordinaryContacts) ordinary contact\(learner.ordinaryContacts == 1 ? "" : "s") and "
            + "\(learner.deliberatePresses) deliberate press\(learner.deliberatePresses == 1 ? "" : "es")"
        if learner.calibrated { return "calibrated; learning waits for `gesture-bridge learned --reset` and the binding calibrate wrote gone" }
        guard let levels = learner.levels else {
            let start = PressLevels.start.threshold.formatted
            // The levels move once a dozen ordinary peaks are remembered (a run of quick taps is one).
            guard learner.ordinaryPeaks.count < LearningRule.minimumOrdinary else {
                return "today's levels still fit (threshold \(start)), \(counts)"
            }
            // Found in review: "from 18 ordinary contacts ...: it waits for 12" read as a contradiction.
            // Found in review of a week of learning: a heavy hand's taps, each right-clicking,
            // were nowhere in it.
            let quick = learner.unjudgedQuick.count
            let quickSoFar = quick == 0 ? "" : "; \(quick) quick press\(quick == 1 ? "" : "es") that reached the threshold wait to be "
                + "judged, and \(LearningRule.quickTaps) before a dozen ordinary contacts are taken for this hand's taps"
            return "nothing learned yet (threshold \(start)), \(counts): it waits for \(LearningRule.minimumOrdinary) ordinary contacts "
                + "apart, \(learner.ordinaryPeaks.count) so far (taps in a quick run count as one)\(quickSoFar)"
        }
        return "threshold \(levels.threshold.formatted), release \(levels.release.formatted), ordinary "
            + "\(levels.ordinary.formatted), \(counts)"
    }

    /// The user's learned state for `devices`, read as `learned` reads it, a warning on stderr
    /// for each file not read; empty without a home.
    static func userState() -> PressLearning {
        let (learning, problems) = userStateAndProblems()
        for problem in problems { printError("warning: " + problem) }
        return learning
    }

    /// The user's learned state, and what keeps some of it from being read (`doctor`'s findings).
    static func userStateAndProblems() -> (learning: PressLearning, problems: [String]) {
        guard let store = LearnedStateStore.user() else { return (PressLearning(), []) }
        let loaded = store.load(settingAside: false)
        var problems = Self.problems(loaded)
        if let problem = loaded.unreadable {
            problems.append("cannot read the learned state in \(problem), so what was learned is not shown")
        }
        return (loaded.learning, problems)
    }

    /// The store read, and changed in nothing: a warning for each file not read.
    private static func read(_ store: LearnedStateStore) -> LearnedStateStore.Loaded {
        let loaded = store.load(settingAside: false)
        for problem in problems(loaded) { printError("warning: " + problem) }
        return loaded
    }

    /// What each file not read means for its device.
    private static func problems(_ loaded: LearnedStateStore.Loaded) -> [String] {
        loaded.damaged.map { "\($0) is damaged, so it is not read; the bridge sets it aside and learns that device afresh" }
            + loaded.unreadableFiles.map { problem in
                "cannot read \(problem), so it is not read; it is left as it is, and the bridge never writes over it: \(LearnedStateError.unreadableAdvice(problem.path))"
            }
            + loaded.otherVersion.map { path in
                "\(path) was written by another version of gesture-bridge, so it is not read; it is left as it is (`learned --reset` of its device removes it, to learn that device here again)"
            }
    }
}
