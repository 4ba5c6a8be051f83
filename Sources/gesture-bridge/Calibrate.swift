import ArgumentParser
import GestureKit
import Glibc
import PressPlot
import X11Bridge

struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find your own deep-press threshold: a few ordinary touches, then a few hard presses.",
        discussion: """
            A guided session in the terminal, on one pressure device (a pen, or a touchscreen \
            that reports pressure). First make a few ordinary taps and short strokes, the way \
            you usually do; then press deliberately hard a few times. The force ring shows \
            where you press and how hard. Each step ends by itself after its contacts, or when \
            you press Enter (once it has one). The application under the pen gets every stroke \
            as usual: calibrating only listens (a bridge running meanwhile still acts on them: \
            it says so at the start).

            It then proposes a `threshold` between your two groups of presses, a `release` and \
            an `ordinary` level for that device, says how far apart the groups are, and warns \
            when they overlap (then --write writes nothing, and exits 1). Without --write it prints the binding (YAML) to standard \
            output; all prompts go to standard error. With --write it puts the binding first \
            in your config (the file --config names, else ~/.config/gesture-bridge/config.yaml, \
            created from the built-in default if there is none), replacing an earlier \
            calibration of the same device, checks the result as `check` does, and keeps the \
            previous file as config.yaml.bak. It reads the file again at the end, so edits made \
            while you pressed are kept (a file broken meanwhile is left alone, and the binding \
            printed). A bridge running with that config reads it by itself (it says \
            so, or which file the running bridge reads instead). It also marks \
            the device calibrated in its learned state, so learning (`threshold: learned`) \
            leaves it alone until `gesture-bridge learned --reset DEVICE`.

            Ctrl-C at any point leaves everything as it was.

            Examples:
              gesture-bridge calibrate
              gesture-bridge calibrate --device "Wacom Intuos S Pen stylus" --write
              gesture-bridge calibrate --ordinary 8 --hard 4 > binding.txt   (a binding to paste under `bindings:`)
              gesture-bridge calibrate --plot my-presses.png
            """
    )

    @Option(help: ArgumentHelp("The device to calibrate, by id or name (see `gesture-bridge devices`); needed when several report pressure and a deep press of the config listens to more than one.", valueName: "name-or-id"))
    var device: String?

    @Flag(help: "Put the binding into the config file instead of printing it.")
    var write = false

    @OptionGroup var config: ConfigOption

    // Unconditional: `--hard -3` reaches `validate`, which says the range, rather than reading
    // as a missing value (found in review).
    @Option(parsing: .unconditional, help: ArgumentHelp("How many ordinary contacts to make.", valueName: "n"))
    var ordinary = 5

    @Option(parsing: .unconditional, help: ArgumentHelp("How many hard presses to make.", valueName: "n"))
    var hard = 3

    @Option(help: ArgumentHelp("Also draw the session's contacts into this PNG file once it is over: each contact's force over time, which step counted it, the deep-press lines the config has for the device and those proposed.", valueName: "file.png"), completion: .file(extensions: ["png"]))
    var plot: String?

    func validate() throws {
        guard (1...50).contains(ordinary) else { throw ValidationError("--ordinary must be between 1 and 50, not \(ordinary)") }
        guard (1...50).contains(hard) else { throw ValidationError("--hard must be between 1 and 50, not \(hard)") }
        try PressPicture.validate(plot, reads: config.readFile)
    }

    /// Whether the bridge running on this display takes a binding written into `path` by itself:
    /// only when the file it watches is this one (a bridge run with another `--config` never reads it).
    static func runningBridgeNote(writtenTo path: String, on connection: XConnection) -> String {
        guard let running = InstanceClaim.runningBridge(on: connection) else { return "The bridge reads it when it starts." }
        let process = running.process.map { " (pid \($0))" } ?? ""
        guard let watched = running.watchedConfig else {
            return "The bridge running\(process) does not read its config again when it changes (`run --no-watch`): "
                + "`kill -HUP` makes it, if this is the file it runs."
        }
        guard SymbolicLinks.sameFile(watched, path) else {
            return "The bridge running\(process) reads \(watched), not this file: run it with `--config \(path)` for the binding to apply."
        }
        return "The running bridge reads it by itself."
    }

    func run() throws {
        SignalDescriptor.block(SignalDescriptor.bridgeSignals + [SIGPIPE])
        let logger = CommandLogging.logger(verbose: false)
        // The file to write, checked now: a broken config is reported before any pressing. It is
        // read again at the end, for the edits made meanwhile.
        if write { _ = try Target(config.source()) }
        // Without --write, the binding printed builds on this (a --config that does not load
        // stops here, before any pressing).
        let base = write ? nil : try config.suggestionBase()
        let connection = try CommandLogging.openDisplay(requirements: .init(xtest: false), logger: logger)
        defer { connection.close() }
        let signals = try CommandLogging.bridgeSignals { printError("gesture-bridge: error: \($0)") }
        let session = InputListener(connection: connection)
        let chosen = try chooseDevice(session.catalog.contactSources, tablets: session.catalog.tabletsAwaitingPen,
                                      bindings: base ?? (try? config.load())?.0)
        let overlay: FeedbackOverlay?
        do {
            overlay = try FeedbackOverlay(connection: connection)
        } catch {
            printError("(no force ring on screen: \(error.description); the terminal shows each press)")
            overlay = nil
        }
        defer { overlay?.close() }
        // Calibrating listens; a bridge running here still acts on the same presses (found in
        // review of calibrating: each hard press right-clicked, three menus over the terminal).
        if let running = InstanceClaim.runningBridge(on: connection) {
            let process = running.process.map { " (pid \($0))" } ?? ""
            printError("""
                A bridge is running on this display\(process): it acts on these presses as ever (a hard one \
                may right-click where you press). Press over an empty part of the desktop, or stop it \
                for the session\(running.process.map { " (`kill \($0)`)" } ?? "") and start it again after.
                """)
        }
        let prompts = Prompts(ordinary: ordinary, hard: hard)
        let pictured = plot.flatMap { _ in chosen.inputDevice.map { SessionPicture(device: $0, config: config) } }
        guard let run = CalibrationRun(session: session, device: chosen, ordinary: ordinary, hard: hard, overlay: overlay,
                                       input: Self.terminalInput(), report: { event in
                                           pictured?.note(event)
                                           prompts.show(event)
                                       }) else {
            throw CommandFailure.error("\(chosen.name) has no pressure axis")
        }
        if let pictured {
            run.observe = { event in pictured.history.add(event) }
        }
        let outcome: CalibrationOutcome
        do {
            outcome = try run.run(signals: signals)
        } catch {
            throw CommandFailure.error(error.description)
        }
        switch outcome {
        case .interrupted(let signal):
            throw CommandFailure("\nstopped: nothing was changed", exitStatus: 128 + signal)
        case .deviceLost:
            throw CommandFailure("\(chosen.name) went away before the end (unplugged, or switched off, as when another session takes the screen): nothing was changed")
        case .serverLost(let message):
            throw CommandFailure("\nstopped: \(message) before the end: nothing was changed", exitStatus: ConnectionLoss.exitStatus)
        case .finished(let calibration):
            guard let suggestion = calibration.suggestion else {
                throw CommandFailure.error("a step ended without a contact; nothing was changed")
            }
            prompts.summarize(suggestion, calibration)
            // No threshold keeps overlapping groups apart: written, it would right-click on
            // ordinary contacts, and the calibrated mark would keep learning from mending it.
            let refused = write && suggestion.overlaps
            var distrust: String?
            if write && !refused {
                // Read again: what was edited in the file while the person pressed is kept.
                let now: Target
                do {
                    now = try Target(config.source(), changedMeanwhile: true)
                } catch {
                    print(suggestion.binding(forDevice: chosen.name), terminator: "")
                    throw error
                }
                let name = ThresholdSuggestion.bindingName(forDevice: chosen.name, among: now.bindings.bindings)
                let binding = suggestion.binding(forDevice: chosen.name, basedOn: Self.deepPress(in: now.bindings, for: chosen),
                                                 named: name)
                do {
                    try now.write(binding, named: name)
                } catch {
                    // A file that cannot be written (a link into a read-only store) loses nothing
                    // of the session: the binding goes where a refused write puts it.
                    print(binding, terminator: "")
                    throw error
                }
                // Written where the bridge would refuse it (a folder an ssh session's umask left
                // group-writable): said, and learning left as it is, since the calibrated binding
                // does not run until the file is trusted. Found in review: calibrate said the
                // bridge read it by itself, and marked the pen calibrated, learning frozen.
                distrust = ConfigTrust.problem(forConfigAt: now.path)
                if distrust == nil {
                    printError(Self.runningBridgeNote(writtenTo: now.path, on: connection))
                    Self.markCalibrated(chosen.learningKey)
                }
            } else {
                let current = base.flatMap { Self.deepPress(in: $0, for: chosen) }
                let name = ThresholdSuggestion.bindingName(forDevice: chosen.name, among: base?.bindings ?? [])
                print(suggestion.binding(forDevice: chosen.name, basedOn: current, named: name), terminator: "")
            }
            // Last: a picture that cannot be saved loses nothing of the calibration.
            if let plot, let pictured {
                try pictured.save(proposed: suggestion, to: plot)
            }
            if refused {
                throw CommandFailure.error("the groups overlap, so nothing was written; the binding is on standard output")
            }
            if let distrust {
                throw CommandFailure.error("the bridge will not read the config as it is, so it runs without the calibration "
                                           + "until then: \(distrust)")
            }
        }
    }

    /// The deep press `bindings` give `device` that its calibration starts from.
    private static func deepPress(in bindings: BindingSet, for device: X11Device) -> Binding? {
        device.inputDevice.flatMap(bindings.calibrationBase(for:))
    }

    /// Records in the device's learned state that calibrate set its levels, so learning leaves it
    /// alone until `learned --reset`; a state that cannot be written is a warning (the config
    /// is already written).
    private static func markCalibrated(_ device: String) {
        guard let store = LearnedStateStore.user() else { return }
        do {
            try store.markCalibrated(device: device)
            printError("Learning leaves \(device) alone until `gesture-bridge learned --reset \(ShellLine.quoted(device))` and this binding's removal.")
        } catch {
            printError("warning: cannot mark \(device) calibrated, so learning may still move it: \(error.description)")
        }
    }

    /// The pressure device to calibrate: the one named, or the only one there is, or the only
    /// one a deep press of `bindings` listens to. Found in review: once a libinput pen's eraser
    /// end had been used, its device (which no binding of the default listens to) made
    /// calibrate refuse with "several devices report pressure".
    /// `tablets`: pen tablets whose pen has not come near yet (`DeviceCatalog.tabletsAwaitingPen`).
    private func chooseDevice(_ sources: [X11Device], tablets: [X11Device], bindings: BindingSet?) throws -> X11Device {
        let withPressure = sources.filter { $0.inputDevice?.pressure != nil }
        if let device {
            guard let found = sources.first(where: { Record.matches($0, device) }) else {
                let known = sources.map { "\($0.id) \"\($0.name)\"" }.joined(separator: ", ")
                // A libinput pen named before it came near (its name as README gives it): found
                // in review of calibrating.
                let awaited = tablets.first.map { ". " + DeviceCatalog.awaitingPenAdvice($0) } ?? ""
                throw CommandFailure.error("no device \"\(device)\"; the devices are: \(known.isEmpty ? "none" : known)\(awaited)")
            }
            guard found.inputDevice?.pressure != nil else {
                throw CommandFailure.error("\"\(found.name)\" reports no pressure, so there is no deep press to calibrate on it (long press and the knob work without pressure)")
            }
            return found
        }
        // Only an eraser so far (xf86-input-libinput adds each tool as it first comes near: the
        // eraser end used first this session): the pen is what is calibrated, and the default
        // config leaves the eraser alone. Found in review of calibrating.
        if !withPressure.isEmpty, withPressure.allSatisfy({ $0.kind == .eraser }) {
            let names = withPressure.map { "\"\($0.name)\"" }.joined(separator: ", ")
            throw CommandFailure.error("only an eraser reports pressure so far (\(names)): under xf86-input-libinput a pen's device appears when its tip first comes near the tablet. Hover the pen's tip over the tablet once, then calibrate; or choose the eraser with --device")
        }
        guard withPressure.count == 1, let only = withPressure.first else {
            if withPressure.isEmpty {
                if let tablet = tablets.first {
                    throw CommandFailure.error(DeviceCatalog.awaitingPenAdvice(tablet) + "; then calibrate")
                }
                throw CommandFailure.error("no device reports pressure: connect a pen tablet or a pressure-sensing touchscreen (`gesture-bridge devices` shows what is there)")
            }
            let deepPressed = withPressure.filter { device in
                device.inputDevice.map { bindings?.calibrationBase(for: $0) != nil } ?? false
            }
            if deepPressed.count == 1, let only = deepPressed.first { return only }
            let names = withPressure.map { "\($0.id) \"\($0.name)\"" }.joined(separator: ", ")
            throw CommandFailure.error("several devices report pressure (\(names)); choose one with --device")
        }
        return only
    }

    /// Standard input when a person (a terminal) or a program (a pipe) can type into it;
    /// nil for /dev/null or a file, which have no Enter to wait for.
    private static func terminalInput() -> Int32? {
        var status = stat()
        guard fstat(0, &status) == 0 else { return nil }
        let kind = status.st_mode & S_IFMT
        return isatty(0) != 0 || kind == S_IFIFO || kind == S_IFSOCK ? 0 : nil
    }
}

/// What the person reads in the terminal (standard error, so standard output is the YAML).
private struct Prompts {
    let ordinary: Int
    let hard: Int

    func show(_ event: CalibrationRunEvent) {
        switch event {
        case .started(let device):
            printError("""
                Calibrating \(device.name) (listening to it; the application below still gets your strokes).
                Step 1 of 2: make \(ordinary) ordinary taps and short strokes, the way you usually do.
                (Enter ends a step early; Ctrl-C stops and changes nothing.)
                """)
        case .session(.measured(let step, let count, let target, let peak)):
            printError("  \(step == .ordinary ? "ordinary" : "hard") \(count)/\(target): peak \(Analyze.fixed(peak, 3))")
        case .session(.finished(.ordinary)):
            printError("Step 2 of 2: now press deliberately hard, \(hard) times, as you would for a right-click.")
        case .session(.finished(.hard)), .session(.finished(.done)):
            break
        case .session(.stillEmpty(let step)):
            printError("  no \(step == .ordinary ? "ordinary contact" : "hard press") yet: make at least one first")
        case .deviceRemoved:
            break
        case .xError(let error):
            printError("warning: \(error.description)")
        }
    }

    func summarize(_ suggestion: ThresholdSuggestion, _ calibration: CalibrationSession) {
        func range(_ peaks: [Double]) -> String {
            "\(Analyze.fixed(peaks.min() ?? 0)) .. \(Analyze.fixed(peaks.max() ?? 0))"
        }
        printError("""

            Ordinary contacts peaked at \(range(calibration.ordinaryPeaks)); hard presses at \(range(calibration.hardPeaks)).
            Proposed: threshold \(suggestion.threshold.formatted), release \(suggestion.release.formatted), ordinary \(suggestion.ordinary.formatted); margin between the groups \(Analyze.fixed(suggestion.margin)).
            """)
        if suggestion.overlaps {
            printError("WARNING: the groups overlap: some ordinary contact pressed as hard as some hard press, so no threshold keeps them apart. Run it again pressing harder in step 2, or lighter in step 1.")
        } else if !suggestion.isReliable {
            printError("WARNING: the groups are close (less than \(ThresholdSuggestion.smallestUsefulMargin.formatted) apart): a firm tap may right-click. Run it again pressing harder in step 2.")
        }
    }
}

/// The config file `--write` changes.
private struct Target {
    let path: String
    /// Its text now, or the built-in default's when it does not exist yet.
    let text: String
    let exists: Bool
    /// What the text configures.
    let bindings: BindingSet

    /// `changedMeanwhile`: read again at the end of the session, so a broken file is one the
    /// person edited while pressing.
    init(_ source: ConfigSource, changedMeanwhile: Bool = false) throws {
        switch source {
        case .file(let path):
            self.path = path
        case .builtInDefault:
            guard let user = ConfigSource.userConfigPath() else {
                throw CommandFailure.error("no home directory to keep a config in; name a file with --config")
            }
            self.path = user
        }
        exists = access(path, F_OK) == 0
        if exists {
            let bytes: [UInt8]
            do {
                bytes = try FileContents.read(path)
            } catch {
                throw CommandFailure.error("cannot read \(path): \(error.reason)")
            }
            do {
                // Not UTF-8 (a file saved as Latin-1) is refused as `check` refuses it: read on,
                // its bytes became U+FFFD in the file and in the backup kept of it (found in review).
                text = try ConfigLoader.text(of: bytes, file: path)
                bindings = try ConfigLoader.parse(text, file: path, keyNames: XKeysymNames())
            } catch {
                let advice = changedMeanwhile
                    ? "it changed while calibrating, so nothing was written; the binding is on standard output"
                    : "fix it (or name another file with --config) before calibrating"
                throw CommandFailure("\(error.description)\ngesture-bridge: error: \(path) is broken; \(advice)")
            }
        } else {
            text = DefaultConfig.text + "\n"
            bindings = ConfigLoader.builtInDefault
        }
    }

    /// The binding in, the old file kept as FILE.bak, the new one in place at once (rename).
    func write(_ binding: String, named name: String) throws {
        let updated: String
        do {
            updated = try ConfigInsertion.insert(binding, named: name, into: text, file: path)
        } catch {
            throw CommandFailure.error("\(error.description)\ngesture-bridge: error: nothing was written; the binding is on standard output")
        }
        // Where the text is kept: the file a symbolic link at `path` leads to (a dotfiles
        // checkout keeps it), with the old file's mode, never writable by group or others (the
        // bridge would refuse it: `ConfigTrust`), whatever the umask.
        let file = SymbolicLinks.finalTarget(of: path) ?? path
        var status = stat()
        let mode = (stat(file, &status) == 0 ? status.st_mode & 0o777 : 0o644) & ~mode_t(S_IWGRP | S_IWOTH)
        let (directory, fileName) = SymbolicLinks.split(file)
        let temporary = directory + "/.\(fileName).calibrate-\(getpid())"
        do throws(FileWriteError) {
            try FileWriteError.check(Self.makeDirectories(directory))
            try FileWriteError.check(Self.write(updated, to: temporary, mode: mode))
            if exists {
                let backup = file + ".bak"
                // An earlier backup of a read-only config cannot be opened for writing: replaced.
                _ = unlink(backup)
                try FileWriteError.check(Self.write(text, to: backup, mode: mode))
                printError("The previous config is kept as \(backup).")
            }
            // Over the file a link leads to: the link stays, and so does the dotfiles copy.
            try FileWriteError.check(rename(temporary, file) == 0)
        } catch {
            unlink(temporary)
            throw CommandFailure.error("cannot write \(path): \(error.reason); the config is as it was, and the binding is on standard output")
        }
        printError("Wrote \(name) first into \(path).")
    }

    /// Each missing directory on the way made, writable by its owner alone whatever the umask
    /// (the bridge refuses a config in a directory others may write); true when all exist.
    private static func makeDirectories(_ directory: String) -> Bool {
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for part in directory.split(separator: "/") {
            prefix += part
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { return false }
            prefix += "/"
        }
        return true
    }

    /// `text` as the whole of a new file of `mode`: never one already there, nor through a
    /// link (found in review: a link planted at the backup's name beside a config in /tmp had
    /// the old config written over the file it led to, where the kernel follows such links).
    private static func write(_ text: String, to path: String, mode: mode_t) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return false }
        // The umask may have taken bits away (never added any): the mode asked for, exactly.
        guard fchmod(descriptor, mode) == 0 else {
            close(descriptor)
            return false
        }
        let writer = LineWriter(descriptor: descriptor, ownsDescriptor: true)
        return writer.write(text: text)
    }
}

/// Why a file could not be written: the system's words for the errno of the call that failed.
private struct FileWriteError: Error {
    var reason: String

    static func check(_ succeeded: Bool) throws(FileWriteError) {
        guard succeeded else { throw FileWriteError(reason: String(cString: strerror(errno))) }
    }
}

/// `--plot`: the session's contacts as they come, drawn once it is over.
private final class SessionPicture {
    var history: PressHistory
    let device: InputDevice

    /// The lines the config has for the device, when it reads (a broken config draws none).
    init(device: InputDevice, config: ConfigOption) {
        self.device = device
        history = PressHistory(devices: [device], configuration: try? config.source().load())
    }

    /// Each contact a step counted is marked with its step.
    func note(_ event: CalibrationRunEvent) {
        if case .session(.measured(let step, _, _, _)) = event {
            history.groupLastLifted(step == .ordinary ? "ordinary" : "hard")
        }
    }

    func save(proposed suggestion: ThresholdSuggestion, to path: String) throws {
        history.addLevels(SourcedLevels(.proposed, PressLevels(threshold: suggestion.threshold, release: suggestion.release,
                                                               ordinary: suggestion.ordinary)), device: device.id)
        try PressPicture.save(history.presses, title: "gesture-bridge calibrate \(device.name)", to: path)
    }
}
