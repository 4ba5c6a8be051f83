import ArgumentParser
import Glibc
import GestureKit
import Logging
import X11Bridge

/// Turns what the bridge reports into output lines (stdout) and log messages (stderr).
final class RunReporter {
    let output: DetachedWriter
    private var formatter: OutputFormatter
    private var bindings: BindingSet
    private var devices: [Int: X11Device] = [:]
    private let verbose: Bool
    private let logger: Logger
    /// Stops the bridge when the output's reader is gone.
    var stop: () -> Void = {}
    /// Writes out what waits of the output and the log: the bridge is about to stop itself
    /// (Ctrl-Z), and a stopped process's threads write nothing.
    var flush: () -> Void = {}
    /// Whether the output's failure was said.
    private var failureSaid = false
    /// The bridge's own events as JSON, with `--json`.
    private let events: RunEventJSON?

    init(style: OutputFormatter.Style, bindings: BindingSet, verbose: Bool, logger: Logger, output: DetachedWriter,
         events: RunEventJSON? = nil) {
        self.formatter = OutputFormatter(style: style)
        self.events = style == .json ? events : nil
        // A knob turned or a pen pressed at 1000 Hz would print a line a sample; readable lines
        // keep to what a person reads (beginnings, ends, thresholds, actions) unless asked.
        formatter.showsEveryChange = verbose
        self.bindings = bindings
        self.verbose = verbose
        self.logger = logger
        self.output = output
    }

    func handle(_ event: BridgeEvent) {
        for line in events?.line(for: event, bindings: bindings) ?? [] { emit(line) }
        switch event {
        case .started(let sources, let screen, let monitors):
            remember(sources)
            logger.info("listening on a \(screen.width.formatted)x\(screen.height.formatted) screen")
            describe(monitors)
            describeListening()
        case .engine(let output):
            if let line = formatter.line(for: output) { emit(line) }
            describeIfVerbose(output)
        case .devicesChanged(let changes):
            // Gone first: a device seen gone and back in one reading went before it came.
            for device in changes.removed {
                logger.info("device \(device.isEnabled ? "removed" : "disabled"): \(device.id) \(device.name)")
                devices[device.id] = nil
            }
            for device in changes.added { logger.info("device added: \(DeviceDescription.line(for: device, bindings: bindings))") }
            for device in changes.updated + changes.remapped {
                logger.info("device changed: \(DeviceDescription.line(for: device, bindings: bindings))")
            }
            remember(changes.added + changes.updated + changes.remapped)
        case .screenResized(let size):
            logger.info("the screen is now \(size.width.formatted)x\(size.height.formatted)")
        case .monitorsChanged(let monitors):
            logger.info("the monitors changed")
            describe(monitors)
        case .monitorMissing(let binding, let monitor, let connected):
            let names = connected.isEmpty ? "none" : connected.joined(separator: ", ")
            logger.warning("\(binding): no monitor `\(monitor)` is connected (connected: \(names)); its center counts from the screen's corners until it is")
        case .deviceMissing(let binding, let name, let connected, let suggestion):
            let names = connected.isEmpty ? "none" : connected.map { "\"\($0)\"" }.joined(separator: ", ")
            let hint = suggestion.map { " (did you mean \"\($0)\"?)" } ?? ""
            logger.warning("\(binding): no device named \"\(name)\" is connected\(hint); the binding listens to none by that name until one comes (connected: \(names); `gesture-bridge devices` lists them)")
        case .configurationReloaded(let source, let bindings):
            self.bindings = bindings
            logger.info("reloaded \(source): \(bindings.bindings.count) bindings; they apply to contacts that begin from now on")
            describeListening()
        case .configurationRejected(let source, let message):
            // Broken, or refused as it is (a mode that lets others change it): the message says which.
            logger.error("\(source) was not loaded; keeping the bindings already running:\n\(message)")
        case .reloadUnavailable:
            logger.notice("SIGHUP: there is no config file to read again (running the built-in default)")
        case .suspended:
            logger.notice("stopped (Ctrl-Z): every press and touch goes to the applications as without the bridge until it is continued (`fg`)")
            flush()
        case .resumed:
            logger.notice("continued: listening again")
        case .configurationFileRemoved(let path):
            logger.notice("\(path) was removed; keeping the bindings already running")
        case .configurationUnwatched(let path, let reason):
            logger.warning("no longer noticing changes to \(path): \(reason)")
        case .configurationWatched(let path):
            logger.info("reloading \(path) whenever it changes again")
        case .actionFailed(let action, let failure):
            logger.error("\(action.gesture): \(action.action) failed: \(failure)")
        case .commandFailed(let failure):
            logger.warning("\(failure.binding): \(failure) (\(failure.argv.joined(separator: " ")))")
        case .releasedHeldInput(let reason):
            logger.notice("released the buttons and keys it held: \(reason)")
        case .xError(let error):
            logger.warning("\(error.description)")
        case .inputOwnership(let ownership):
            // Said without --verbose too: a gesture program holding the touches turns every
            // touch gesture off (found in review), and another client's button grab lets a
            // deep press click as well.
            if case .cannotHold = ownership { logger.warning("\(ownership)") } else if verbose { logger.info("\(ownership)") }
            if formatter.style == .json { emit(ownership.json) }
        case .motionUnheard(let device):
            if verbose { logger.info("device \(device): no gesture follows this stroke; its motion goes unread until the lift") }
        case .pressureDead(let device, let name, let dead):
            if dead {
                logger.notice("\"\(name)\" (device \(device)) declares pressure but has not moved it over its last presses: it gets the gestures that need no pressure until it does")
            } else {
                logger.notice("\"\(name)\" (device \(device)) reports pressure after all: its pressure gestures are back")
            }
        case .stopping(let signal, _):
            logger.info("stopping\(signal.map { " on \(Self.signalName($0))" } ?? "")")
        }
    }

    /// Hands an output line to the writer. A reader gone (a pipe into `head` closed) stops the
    /// bridge, as it stops any program writing there; output that cannot be written otherwise
    /// (a full disk) is said once, and the gestures go on: losing its lines must not take the
    /// gestures from the person at the desk. Lines dropped while nothing read them are said.
    private func emit(_ line: String) {
        // Lines dropped while nothing read them, said where they are missing, before the line
        // that follows the gap: a reader of `--json` that paused (found in review) lost a
        // press's `ended` and action lines with nothing in the stream to say so.
        let marker: ((Int) -> String)? = formatter.style == .json ? { JSONLineEncoder.line(RunEventLine.outputDropped(lines: $0)) } : nil
        let (goesOn, dropped) = output.write(line, markingDropped: marker)
        if dropped > 0 {
            logger.warning("\(dropped) output line\(dropped == 1 ? " was" : "s were") dropped: nothing read the output for a while; the gestures went on")
        }
        guard goesOn else {
            guard let failure = output.failure else { return }
            if failure.readerGone { return stop() }
            if !failureSaid {
                failureSaid = true
                logger.warning("the output lines are no longer written (\(failure)); the gestures go on")
            }
            return
        }
    }

    private func remember(_ sources: [X11Device]) {
        for device in sources { devices[device.id] = device }
        let showsEveryChange = formatter.showsEveryChange
        formatter = OutputFormatter(style: formatter.style, devices: devices.values.compactMap(\.inputDevice))
        formatter.showsEveryChange = showsEveryChange
    }

    private func describe(_ layout: MonitorLayout) {
        for monitor in layout.monitors {
            let frame = monitor.frame
            let dpi = monitor.dpi.map { ", \(Int($0.rounded())) dpi" } ?? ""
            logger.info("  monitor \(monitor.name)\(monitor.isPrimary ? " (primary)" : ""): \(frame.width)x\(frame.height)+\(frame.x)+\(frame.y)\(dpi)")
        }
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
        case .bug(let message):
            logger.warning("engine: \(message)")
        case .feedback(let feedback):
            logger.debug("feedback: \(Self.describe(feedback))")
        case .gesture, .action, .decision, .learned:
            // Printed by the formatter: decisions with --json, or readable with --verbose.
            break
        }
    }

    static func describe(_ feedback: Feedback) -> String {
        func point(_ point: Point) -> String { "(\(JSONLine.number(point.x)), \(JSONLine.number(point.y)))" }
        switch feedback {
        case .pulse(_, let at, _):
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
