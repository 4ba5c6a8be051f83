import ArgumentParser
import Dispatch
import Glibc
import GestureKit
import Logging
import X11Bridge

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the bridge in this X session: gestures in, clicks, keys and commands out.",
        discussion: """
            Listens to every pen, touchscreen and mouse through XInput2 and prints each gesture \
            and action as it happens: readable lines of each gesture's beginning, end and \
            thresholds crossed and of each action (--verbose adds every change in between, such \
            as a knob's angle: up to a line a sample), or JSON Lines of every report with --json, \
            the same lines `replay --json` prints for a recording. With no --config it uses \
            ~/.config/gesture-bridge/config.yaml when that exists, else the built-in default. \
            Devices without pressure still get the bindings that need none (knob, long press).

            Ctrl-C, Ctrl-\\ or SIGTERM stops it, releasing anything it holds pressed, and so does \
            closing the terminal it runs in (or losing the ssh connection), unless it was started \
            with `nohup` (or `setsid`), which keeps it running. The config file is \
            read again whenever it changes (saved in place or replaced by an editor), and on \
            SIGHUP: a broken file is reported with file:line:column and the old bindings stay. \
            Running the built-in default, it loads ~/.config/gesture-bridge/config.yaml as soon \
            as that file is created, its folder too.

            One bridge runs per display: a second would act on every gesture again (a deep press \
            would right-click twice), so it says which one runs and exits; with --replace it takes \
            the display over from that one instead.

            A config file that does not load as the bridge starts (a bad edit saved while no \
            bridge ran, or refused by the one that did) is reported, and the bridge runs the \
            config that last loaded from that file (kept in ~/.local/state/gesture-bridge/configs/) \
            until it is mended; with none kept, your own config \
            (~/.config/gesture-bridge/config.yaml) runs the built-in default meanwhile, and a \
            file named with --config does not start.

            Its output never holds it up: with nobody reading it (a terminal paused by Ctrl-S, \
            a pipe into a pager) lines wait, and beyond a megabyte are dropped, which the log \
            says; on a full disk they are no longer written, said once, and the gestures go on.

            Exit status: 0 when stopped by Ctrl-C, Ctrl-\\ or SIGTERM once it runs (before, \
            they end it as they would any program); 1 when it cannot start (no X \
            display, a --config file that never loaded, a missing extension, a bridge it \
            replaces that does not go) or its output's reader is gone (a pipe into `head`); 69 when the connection to the \
            X server is lost while it runs (the server exited or crashed), so that a service \
            manager can start it again; 75 when another gesture-bridge runs on the display, or \
            takes it over; 78 in a Wayland session (the environment says so, or the X server is \
            Xwayland) or on an X server without XInput 2.2 (a remote desktop's, such as x2go's), \
            which the installed service does not start again on.

            Examples:
              gesture-bridge run
              gesture-bridge run --config my-config.yaml --dry-run --verbose
              gesture-bridge run --json | tee session.jsonl
              pkill -HUP -f '[g]esture-bridge run'   # reloads the config (not a `record`, nor this shell)
            """
    )

    @OptionGroup var config: ConfigOption

    @Flag(help: ArgumentHelp("Recognize and print, but send no input and run no commands.",
                             discussion: "Presses a gesture claims are still kept from the applications, as when it acts: a deep press then does nothing at all. To see what gestures your presses make without holding anything back, `record` them and `replay` the trace."))
    var dryRun = false

    @Flag(help: "One JSON object per line, in the trace-format contract, instead of readable columns.")
    var json = false

    @Flag(name: .shortAndLong, help: "Also print every change of a gesture (a knob's angle, a force), and log ownership decisions, strokes no gesture follows any more (their motion goes unread), feedback and anything the engine found impossible.")
    var verbose = false

    @Flag(help: "Show a circle under every pen and finger touching the screen, sized by its force (for screencasts and teaching). It reads every sample of a stroke and of a hovering pen, which the bridge otherwise leaves unread or reads in batches: more CPU while it shows.")
    var showTouches = false

    @Flag(name: .customLong("no-watch"), help: "Do not read the config file again when it changes (SIGHUP still does).")
    var noWatch = false

    @Flag(help: ArgumentHelp("Take the display over from a gesture-bridge already running on it, instead of leaving it be.",
                             discussion: "The running one lets go of everything it holds and exits with status 75; this one waits for it to go (up to \(Int(InstanceClaim.handOverGrace)) seconds, else it says so and exits with status 1) before it listens. The installed systemd unit runs with it: `systemctl --user restart gesture-bridge` after an upgrade runs the new program even when the autostart entry started the old one."))
    var replace = false

    @Flag(help: ArgumentHelp("Started by the desktop session's autostart entry: where there is nothing for it to do, it says why and exits with status 0.",
                             discussion: "In a session the bridge cannot run in (Wayland, or an X server without XInput 2.2: status 78 without it), and beside a gesture-bridge already running on the display or taking it over (the systemd user service: status 75 without it). The session then lists no failed start (`systemctl --user --failed`, where systemd runs the autostart entries)."))
    var autostart = false

    func run() throws {
        do {
            try runBridge()
        } catch let failure as CommandFailure
                    where autostart && [BridgeSetupError.wrongSessionStatus, InstanceClaim.exitStatus].contains(failure.exitStatus) {
            // Said as it would be, minus the failure: nothing here needed this bridge. A session
            // the bridge cannot run in is the reason it has no gestures: a warning where the
            // journal files it (found in review of a Wayland user's week: filed as info, the
            // README's `journalctl -p warning` never showed it).
            guard !failure.message.isEmpty else { return }
            let level: Logger.Level = failure.exitStatus == BridgeSetupError.wrongSessionStatus ? .warning : .notice
            let journal = JournalLogHandler.standardErrorIsJournal(environment: ProcessEnvironment.current)
            printError(journal ? JournalLogHandler.entry(level: level, message: failure.message) : failure.message)
        }
    }

    private func runBridge() throws {
        // Neither output is written from the event loop (`DetachedWriter`); what waits goes out
        // before the process ends, unless its reader still does not read.
        let output = DetachedWriter(descriptor: STDOUT_FILENO), errors = DetachedWriter(descriptor: STDERR_FILENO)
        // Stopping, both are given `finishTimeout` in all, from the first wait on (found in
        // review: each wait took its own, and with both unread SIGTERM took 6 s).
        var stopDeadline: DispatchTime?
        func finishOutputs() {
            let deadline = stopDeadline ?? .now() + Self.finishTimeout
            stopDeadline = deadline
            output.finish(by: deadline)
            errors.finish(by: deadline)
        }
        defer { finishOutputs() }
        let logger = CommandLogging.logger(verbose: verbose, detached: errors)
        let keptConfigs = KeptConfig.user()
        // Writes to disk (kept configs, learned state) are made on a thread of their own.
        let disk = SerialWorker(), threadTold = FailureTold()
        var stoppedBy: StopReason?
        let (bindings, source, rejected) = try Self.startingConfig(config, kept: keptConfigs)
        let keepFailure = FailureTold()
        if rejected == nil, case .file(let path) = source, let keptConfigs {
            Self.tell(keptConfigs.keep(path, loadedAs: bindings, keyNames: XKeysymNames()), keepFailure, logger)
        }
        // Until the bridge may hold input, Ctrl-C and SIGTERM end it as they would any program:
        // found in review of a terminal's life, blocked from the start, they went unread while
        // the connection waited on a server that did not answer, and through the 15 s wait for
        // a bridge to hand its display over.
        let connection = try CommandLogging.openDisplay(requirements: .init(xtest: !dryRun), logger: logger)
        // One bridge per display: a second would act on every gesture again.
        let session = InputListener(connection: connection)
        do {
            session.claim = try InstanceClaim.take(on: connection, replace: replace)
        } catch {
            throw CommandFailure.error(error.description, exitStatus: error.exitStatus)
        }
        // From here the event loop reads them, letting go of what it holds first. The threads
        // the bridge makes block every signal themselves (`SerialWorker`).
        SignalDescriptor.block(SignalDescriptor.runSignals)
        let signals = try CommandLogging.bridgeSignals(SignalDescriptor.runSignals) { logger.error("\($0)") }
        for process in session.claim?.replaced ?? [] {
            logger.info("took display \(connection.displayName) over from the gesture-bridge\(process.map { " (process \($0))" } ?? "") that ran on it")
        }
        if let advice = connection.otherScreensAdvice { logger.warning("\(advice)") }
        logger.info("config: \(source)")
        let reloader = ConfigReloader(source: source, watch: noWatch ? nil : Self.watch(source, logger: logger),
                                      watching: noWatch ? nil : Self.watchedPath(source), running: rejected == nil ? bindings : nil)
        session.claim?.publish(watchedConfig: reloader.watch?.path, on: connection)
        let reporter = RunReporter(style: json ? .json : .human, bindings: bindings, verbose: verbose, logger: logger,
                                   output: output,
                                   events: RunEventJSON(config: source, watching: reloader.watch?.path))
        let performer: any ActionPerformer = dryRun
            ? DryRunPerformer { logger.info("\($0)") }
            : XTestPerformer(connection: connection) { reporter.handle(.commandFailed($0)) }
        let overlay: FeedbackOverlay?
        do {
            overlay = try FeedbackOverlay(connection: connection)
        } catch {
            overlay = nil
            logger.warning("no on-screen feedback: \(error.description)")
        }
        // What earlier runs learned; a damaged file is set aside and learning starts afresh for it.
        let store = LearnedStateStore.user()
        // `learned --reset` asks this, whatever display it can reach: this bridge would write
        // back what it learned over the forgetting.
        if let store, !store.holdInUse() {
            logger.debug("cannot mark \(store.directory) in use: `learned --reset` run where this display cannot be reached would not know this bridge runs")
        }
        let loaded = store?.load(settingAside: true) ?? LearnedStateStore.Loaded()
        if let problem = loaded.unreadable {
            logger.warning("cannot read the learned state in \(problem); every device learns afresh, and what it learns cannot be kept there")
        }
        for path in loaded.damaged {
            logger.warning("the learned state \(path) is damaged; set aside as \(path).damaged, learning starts afresh")
        }
        for problem in loaded.unreadableFiles {
            logger.warning("cannot read the learned state \(problem); left as it is and never written over, so its device learns without keeping: \(LearnedStateError.unreadableAdvice(problem.path)), then restart the bridge")
        }
        for path in loaded.otherVersion {
            logger.warning("the learned state \(path) was written by another version of gesture-bridge; left as it is, so its device learns without keeping (`gesture-bridge learned --reset` of that device removes it, to keep it again)")
        }
        // A folder that could not be read is never written (found in review: said so, and the
        // learning of earlier runs was written over at the first save).
        let saver = loaded.unreadable != nil ? nil : store.map {
            LearnedStateSaver(store: $0, leftAlone: Set(loaded.otherVersion + loaded.unreadableFiles.map(\.path)), worker: disk,
                              logger: logger)
        }
        let bridge = Bridge(session: session, configuration: bindings, performer: performer, feedback: overlay,
                            showsContacts: showTouches, reloader: reloader, learning: loaded.learning) { event in
            reporter.handle(event)
            if case .started = event, let rejected {
                reporter.handle(.configurationRejected(source: source.description, message: rejected.message))
                logger.warning("running \(rejected.standIn) until the file is mended: \(noWatch ? "SIGHUP reads it again" : "it is read again as soon as it changes")")
            }
            // Kept away from the loop, as the learned state is (`LearnedStateSaver`): a write and
            // its fsync on a slow disk would freeze every press the bridge holds back meanwhile.
            if case .configurationReloaded(_, let reloaded) = event, case .file(let path) = reloader.source, let keptConfigs {
                disk.submit { Self.tell(keptConfigs.keep(path, loadedAs: reloaded, keyNames: XKeysymNames()), keepFailure, logger) }
            }
            if case .engine(.learned(let change)) = event {
                saver?.save(change.learner, of: change.key)
            }
            if case .stopping(_, let reason) = event { stoppedBy = reason }
            switch event {
            case .configurationReloaded, .engine(.learned): Self.tell(threadFailure: disk.threadFailure, threadTold, logger)
            default: break
            }
        }
        bridge.terminal = ControllingTerminal()
        reporter.stop = { [unowned bridge] in bridge.stop(.outputClosed) }
        reporter.flush = {
            let deadline = DispatchTime.now() + Self.finishTimeout
            output.finish(by: deadline)
            errors.finish(by: deadline)
        }
        do {
            try bridge.run(signals: signals)
        } catch {
            // A server that went away during start-up is reported as the loss it is, below.
            if !connection.isLost {
                logger.error("\(error.description)")
                _ = saver?.finish()
                throw CommandFailure.reported()
            }
        }
        // A config that loaded just before the stop is kept before the process ends; with no
        // thread to keep it (the process limit), here.
        disk.finish(by: .now() + 2)
        // The contacts since the last change of levels are kept too, however the bridge stopped
        // (the X server gone at a logout or a crash included), before the display is let go:
        // a bridge started next reads them.
        if let saver {
            for (device, learner) in bridge.engine.learning.devices where loaded.learning.devices[device] != learner {
                saver.save(learner, of: device)
            }
            if !saver.finish() {
                logger.warning("stopping without what was learned since the last change: its folder \(saver.directory) did not take it within \(Int(LearnedStateSaver.finishTimeout)) s")
            }
        }
        if bridge.wasTakenOver {
            logger.error("stopped: another gesture-bridge took over display \(connection.displayName); it runs the gestures now")
            connection.close()
            throw CommandFailure.reported(exitStatus: InstanceClaim.exitStatus)
        }
        if connection.isLost {
            logger.error("""
                stopped: \(connection.loss.message); exiting with status \(ConnectionLoss.exitStatus). \
                The next login's session starts the bridge again (its autostart entry, or the \
                systemd user unit, which does not restart it against a display that is gone); by \
                hand, run it again once the X server is back.
                """)
            connection.close()
            throw CommandFailure.reported(exitStatus: ConnectionLoss.exitStatus)
        }
        // The bridge it took over from is gone for good: the service does not restart one that
        // handed its display over, and the autostart entry's ran once. Found in review of a
        // caregiver's setup: a bridge run over ssh to watch a person's presses, stopped, left
        // them no gestures until their next login, and nothing said so.
        let replaced = session.claim?.replaced ?? []
        if !replaced.isEmpty {
            let which = replaced.compactMap { $0.map { "process \($0)" } }.joined(separator: ", ")
            logger.warning("""
                the gesture-bridge this one took display \(connection.displayName) over from\(which.isEmpty ? "" : " (\(which))") \
                does not run any more, so no bridge runs there now: `systemctl --user start gesture-bridge` starts \
                the service again, or a new login the session's
                """)
        }
        connection.close()
        // What waits is written first: its failure counts too.
        finishOutputs()
        // A reader gone with the same Ctrl-C (`run | tee log`: the terminal stops both) is no
        // failure: found in review of a terminal's life, it exited 1 saying so.
        if let failure = output.failure, failure.readerGone, stoppedBy != .signal, stoppedBy != .terminalClosed {
            logger.error("stopped: cannot write the output: \(failure)")
            throw CommandFailure.reported()
        }
    }

    /// How long the bridge, stopping (or stopped by Ctrl-Z), waits for its output and log lines
    /// to be written, both together.
    static let finishTimeout = 2.0

    /// The config to start with, and where it comes from: the file's (kept for later by the
    /// caller, `KeptConfig`); for a file that does not load (a bad edit saved, and the bridge started
    /// after it, at a login or a restart), what stands in for it (`StartingConfig`: the config
    /// that last loaded from it, or, with none kept, the built-in default for the user's own
    /// file), with what is wrong (`rejected`), so a bad edit never leaves a person
    /// without the gestures they had. With nothing to stand in, the file's errors as
    /// file:line:column and exit status 1.
    static func startingConfig(_ option: ConfigOption, kept: KeptConfig?)
        throws -> (BindingSet, ConfigSource, rejected: (message: String, standIn: String)?) {
        let source = option.source().anchored()
        let start = StartingConfig(source, kept: kept, keyNames: XKeysymNames())
        guard let bindings = start.bindings else { throw CommandFailure(start.error?.description ?? "the config does not load") }
        guard let error = start.error, let standIn = start.standIn(for: source) else { return (bindings, source, nil) }
        return (bindings, source, (error.description, standIn))
    }

    /// Logs a config that could not be kept, once until one is kept again.
    /// Says once, until a thread could be made again, that what is to be written to disk
    /// waits for want of one.
    private static func tell(threadFailure: Int32?, _ told: FailureTold, _ logger: Logger) {
        guard let threadFailure else { return told.worked() }
        guard told.shouldTell("\(threadFailure)") else { return }
        logger.warning("""
            cannot start a thread to write the kept config and the learned state (\(String(cString: strerror(threadFailure)))): \
            \(threadFailure == EAGAIN ? "the user's process limit (`ulimit -u`, or the session's TasksMax) is reached; " : "")\
            they are written once one can be made, or as the bridge stops
            """)
    }

    private static func tell(_ keeping: KeptConfig.Keeping, _ told: FailureTold, _ logger: Logger) {
        switch keeping {
        case .kept: told.worked()
        case .changedSince: break
        case .failed(let message): if told.shouldTell(message) { logger.warning("\(message)") }
        }
    }

    /// The watch on the config file; for the built-in default, on the user's file that may
    /// be created later, when its directory exists.
    /// The file a running bridge watches: its config, or the user's file to come.
    private static func watchedPath(_ source: ConfigSource) -> String? {
        switch source {
        case .file(let file): file
        case .builtInDefault: ConfigSource.userConfigPath()
        }
    }

    private static func watch(_ source: ConfigSource, logger: Logger) -> ConfigFileWatch? {
        guard let path = watchedPath(source) else { return nil }
        do {
            let watch = try ConfigFileWatch(path: path)
            if case .builtInDefault = source {
                logger.info("\(path) is loaded as soon as it is created")
            } else {
                logger.info("reloading \(path) whenever it changes")
            }
            return watch
        } catch {
            if case .builtInDefault = source {
                logger.info("\(error.description); a config created there is read on SIGHUP or when the bridge starts again")
            } else {
                logger.warning("\(error.description); SIGHUP reloads it")
            }
            return nil
        }
    }
}
