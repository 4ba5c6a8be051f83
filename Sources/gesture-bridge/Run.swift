import ArgumentParser
import Foundation
import Glibc
import GestureKit
import Logging
import X11Bridge

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the bridge in this X session: gestures in, clicks, keys and commands out.",
        discussion: """
            Listens to every pen, touchscreen and mouse through XInput2 and prints each gesture \
            and action as it happens (JSON Lines with --json, the same lines `replay --json` \
            prints for a recording). With no --config it uses \
            ~/.config/gesture-bridge/config.yaml when that exists, else the built-in default. \
            Devices without pressure still get the bindings that need none (knob, long press).

            Ctrl-C or SIGTERM stops it, releasing anything it holds pressed. SIGHUP reads the \
            config file again: a broken file is reported with file:line:column and the old \
            bindings stay.

            Examples:
              gesture-bridge run
              gesture-bridge run --config my-config.yaml --dry-run --verbose
              gesture-bridge run --json | tee session.jsonl
              pkill -HUP -x gesture-bridge      # after editing the config
            """
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("The config to run (default: the user's config file, else the built-in default).", valueName: "file"))
    var config: String?

    @Flag(help: "Recognize and print, but send no input and run no commands.")
    var dryRun = false

    @Flag(help: "One JSON object per line, in the trace-format contract, instead of readable columns.")
    var json = false

    @Flag(name: .shortAndLong, help: "Also log ownership decisions, feedback and anything the engine found impossible.")
    var verbose = false

    @Flag(help: "Show a circle under every pen and finger touching the screen, sized by its force.")
    var showTouches = false

    func run() throws {
        // Before anything can start a thread: threads inherit the mask, and a signal the
        // signalfd should read must not be delivered to some other thread instead. SIGPIPE
        // stays blocked so a closed output pipe is a write error, not a death with a button held.
        SignalDescriptor.block(SignalDescriptor.bridgeSignals + [SIGPIPE])
        let logger = CommandLogging.logger(verbose: verbose)
        let (bindings, source) = try loadConfiguration(explicit: config)
        let connection = try CommandLogging.openDisplay(requirements: .init(xtest: !dryRun), logger: logger)
        let signals: SignalDescriptor
        do {
            signals = try SignalDescriptor(signals: SignalDescriptor.bridgeSignals)
        } catch {
            logger.error("\(error.description)")
            throw ExitCode.failure
        }
        let session = InputSession(connection: connection)
        let performer: any ActionPerformer = dryRun
            ? DryRunPerformer { logger.info("\($0)") }
            : XTestPerformer(connection: connection)
        let reporter = RunReporter(style: json ? .json : .human, bindings: bindings, verbose: verbose, logger: logger,
                                   output: .standardOutput)
        let bridge = Bridge(session: session, configuration: bindings, performer: performer) { reporter.handle($0) }
        reporter.stop = { [unowned bridge] in bridge.stop() }
        bridge.configurationSource = source
        bridge.showsContacts = showTouches
        do {
            bridge.feedback = try FeedbackOverlay(display: connection.display, screen: connection.screenNumber)
        } catch {
            logger.warning("no on-screen feedback: \(error.description)")
        }
        logger.info("config: \(source)")
        do {
            try bridge.run(signals: signals)
        } catch {
            logger.error("\(error.description)")
            throw ExitCode.failure
        }
        connection.close()
        if let failure = reporter.output.failure {
            logger.error("stopped: cannot write the output: \(failure)")
            throw ExitCode.failure
        }
    }
}

/// Turns what the bridge reports into output lines (stdout) and log messages (stderr).
final class RunReporter {
    let output: LineWriter
    private var formatter: OutputFormatter
    private var bindings: BindingSet
    private var devices: [Int: X11Device] = [:]
    private let verbose: Bool
    private let logger: Logger
    /// Stops the bridge when the output can no longer be written.
    var stop: () -> Void = {}

    init(style: OutputFormatter.Style, bindings: BindingSet, verbose: Bool, logger: Logger, output: LineWriter) {
        self.formatter = OutputFormatter(style: style)
        self.bindings = bindings
        self.verbose = verbose
        self.logger = logger
        self.output = output
    }

    func handle(_ event: BridgeEvent) {
        switch event {
        case .started(let sources, let screen):
            remember(sources)
            logger.info("listening on a \(screen.width.formatted)x\(screen.height.formatted) screen")
            describeListening()
        case .engine(let output):
            if let line = formatter.line(for: output), !self.output.write(line) {
                stop()
            }
            describeIfVerbose(output)
        case .devicesChanged(let changes):
            for device in changes.added { logger.info("device added: \(DeviceDescription.line(for: device, bindings: bindings))") }
            for device in changes.updated { logger.info("device changed: \(DeviceDescription.line(for: device, bindings: bindings))") }
            for device in changes.removed {
                logger.info("device \(device.isEnabled ? "removed" : "disabled"): \(device.id) \(device.name)")
                devices[device.id] = nil
            }
            remember(changes.added + changes.updated)
        case .screenResized(let size):
            logger.info("the screen is now \(size.width.formatted)x\(size.height.formatted)")
        case .configurationReloaded(let source, let bindings):
            self.bindings = bindings
            logger.info("reloaded \(source): \(bindings.bindings.count) bindings; they apply to contacts that begin from now on")
            describeListening()
        case .configurationRejected(let source, let message):
            logger.error("\(source) is broken; keeping the bindings already running:\n\(message)")
        case .reloadUnavailable:
            logger.notice("SIGHUP: there is no config file to read again (running the built-in default)")
        case .actionFailed(let action, let failure):
            logger.error("\(action.gesture): cannot \(action.action): \(failure)")
        case .releasedHeldInput(let reason):
            logger.notice("released the buttons and keys it held: \(reason)")
        case .xError(let error):
            logger.warning("\(error.description)")
        case .inputOwnership(let message):
            if verbose { logger.info("\(message)") }
        case .stopping(let signal):
            logger.info("stopping\(signal.map { " on \(Self.signalName($0))" } ?? "")")
        }
    }

    private func remember(_ sources: [X11Device]) {
        for device in sources { devices[device.id] = device }
        formatter = OutputFormatter(style: formatter.style, devices: devices.values.compactMap(\.inputDevice))
    }

    private func describeListening() {
        let sources = devices.values.sorted { $0.id < $1.id }
        if sources.isEmpty {
            logger.notice("no pen, touchscreen or mouse found yet; devices plugged in later join as they come")
            return
        }
        logger.info("listening to \(sources.count) device\(sources.count == 1 ? "" : "s"):")
        for device in sources {
            logger.info("  \(DeviceDescription.line(for: device, bindings: bindings))")
        }
        if !sources.contains(where: { $0.pressureAxis?.pressureRange != nil }) {
            let inputs = sources.compactMap(\.inputDevice)
            let served = bindings.bindings.filter { binding in inputs.contains { binding.listens(to: $0) } }.map(\.name)
            if served.isEmpty {
                logger.notice("no device reports pressure, and no binding of this config listens to these devices")
            } else {
                logger.notice("no device reports pressure: serving the bindings that need none (\(served.joined(separator: ", ")))")
            }
        }
    }

    private func describeIfVerbose(_ output: EngineOutput) {
        guard verbose else { return }
        switch output {
        case .decision(.claim(let key, let gesture, let time)):
            logger.info("\(JSONLine.number(time)) contact \(key.device)/\(key.contact): kept for \(gesture)")
        case .decision(.release(let key, let reason, let time)):
            logger.info("\(JSONLine.number(time)) contact \(key.device)/\(key.contact): left to the application (\(reason.rawValue))")
        case .bug(let message):
            logger.warning("engine: \(message)")
        case .feedback(let feedback):
            logger.debug("feedback: \(Self.describe(feedback))")
        case .gesture, .action:
            break
        }
    }

    static func describe(_ feedback: Feedback) -> String {
        func point(_ point: Point) -> String { "(\(JSONLine.number(point.x)), \(JSONLine.number(point.y)))" }
        switch feedback {
        case .pulse(let at, _):
            return "pulse at \(point(at))"
        case .progress(let key, let at, let fraction):
            return "ring for contact \(key.device)/\(key.contact) at \(point(at)), \(Int((fraction * 100).rounded()))% of the threshold"
        case .progressEnded(let key):
            return "ring for contact \(key.device)/\(key.contact) hidden"
        }
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(signal)"
        }
    }
}

/// Logging and display opening shared by the commands that talk to the X server.
enum CommandLogging {
    static func logger(verbose: Bool) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .debug : .info
            return handler
        }
        return Logger(label: "gesture-bridge")
    }

    /// The X connection, or a clear message and a non-zero exit.
    static func openDisplay(requirements: XConnection.Requirements, logger: Logger) throws -> XConnection {
        do {
            let name = try SessionCheck.displayName(environment: ProcessInfo.processInfo.environment)
            return try XConnection.open(name: name, requirements: requirements)
        } catch {
            printError("gesture-bridge: error: \(error.description)")
            throw ExitCode.failure
        }
    }
}

/// One line about a device: what it is, its pressure range and touches, and who listens.
enum DeviceDescription {
    static func line(for device: X11Device, bindings: BindingSet) -> String {
        var parts = ["\(device.id) \"\(device.name)\": \(device.kind?.rawValue ?? "not a contact source")"]
        if let range = device.pressureAxis?.pressureRange {
            parts.append("pressure \(range.min.formatted)..\(range.max.formatted)")
        } else {
            parts.append("no pressure")
        }
        if let touch = device.touch {
            parts.append("\(touch.maxTouches) touches (\(touch.mode.rawValue))")
        }
        if !device.isEnabled { parts.append("disabled") }
        let names = listeners(of: device, in: bindings)
        parts.append(names.isEmpty ? "no binding listens" : "bindings: \(names.joined(separator: ", "))")
        return parts.joined(separator: ", ")
    }

    static func listeners(of device: X11Device, in bindings: BindingSet) -> [String] {
        guard let input = device.inputDevice else { return [] }
        return bindings.bindings.filter { $0.listens(to: input) }.map(\.name)
    }
}
