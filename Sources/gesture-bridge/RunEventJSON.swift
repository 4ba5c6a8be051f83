import GestureKit
import X11Bridge

/// The bridge's own events as `run --json` prints them, one object a line with an `event` key
/// (docs/trace-format.md): what a script or a test reads instead of the log's words.
struct RunEventJSON {
    /// The config the bridge runs, and the file it watches for changes (nil: none).
    let config: ConfigSource
    let watching: String?

    func line(for event: BridgeEvent, bindings: BindingSet) -> [String] {
        events(for: event, bindings: bindings).map(JSONLineEncoder.line)
    }

    func events(for event: BridgeEvent, bindings: BindingSet) -> [RunEventLine] {
        switch event {
        case .started(let devices, let screen, let monitors):
            return [.listening(config: config.description, watching: watching, screen: screen,
                               monitors: Self.lines(monitors), devices: devices.map { DeviceLine($0, bindings: bindings) })]
        case .devicesChanged(let changes):
            // In the order they happened: a device seen gone and back in one reading (re-plugged
            // at a resume while the bridge was frozen) went first.
            return changes.removed.map { .deviceGone($0.isEnabled ? .deviceRemoved : .deviceDisabled, id: $0.id, name: $0.name) }
                + changes.added.map { .device(.deviceAdded, DeviceLine($0, bindings: bindings)) }
                + (changes.updated + changes.remapped).map { .device(.deviceChanged, DeviceLine($0, bindings: bindings)) }
        case .screenResized(let size):
            return [.screenResized(size)]
        case .monitorsChanged(let monitors):
            return [.monitorsChanged(Self.lines(monitors))]
        case .monitorMissing(let binding, let monitor, let connected):
            return [.monitorMissing(binding: binding, monitor: monitor, connected: connected)]
        case .deviceMissing(let binding, let name, let connected, let suggestion):
            return [.deviceMissing(binding: binding, name: name, connected: connected, suggestion: suggestion)]
        case .configurationReloaded(let source, let reloaded):
            return [.configReloaded(source: source, bindings: reloaded.bindings.map(\.name))]
        case .configurationRejected(let source, let message):
            return [.configRejected(source: source, message: message)]
        case .reloadUnavailable:
            return [.reloadUnavailable]
        case .suspended:
            return [.suspended]
        case .resumed:
            return [.resumed]
        case .configurationFileRemoved(let path):
            return [.configRemoved(path: path)]
        case .configurationUnwatched(let path, let reason):
            return [.configUnwatched(path: path, reason: reason)]
        case .configurationWatched:
            // Said in the log only: the `--json` lines stay as docs/trace-format.md lists them.
            return []
        case .actionFailed(let action, let failure):
            return [.actionFailed(binding: action.gesture, action: action.action, message: "\(failure)")]
        case .commandFailed(let failure):
            return [.commandFailed(binding: failure.binding, argv: failure.argv, message: failure.description)]
        case .releasedHeldInput(let reason):
            return [.releasedHeldInput(reason: reason)]
        case .xError(let error):
            return [.message(.xError, error.description)]
        case .motionUnheard(let device):
            return [.motionUnheard(device: device)]
        case .pressureDead(let device, let name, let dead):
            return [.pressure(dead: dead, device: device, name: name)]
        case .stopping(let signal, let reason):
            return [.stopping(signal: signal.map(RunReporter.signalName), reason: reason.rawValue)]
        case .engine, .inputOwnership:
            // Printed by the output formatter and as ownership objects.
            return []
        }
    }

    /// RandR's monitors in its order, as `listening` and `monitors-changed` carry them.
    static func lines(_ layout: MonitorLayout) -> [MonitorLine] {
        layout.monitors.map(MonitorLine.init)
    }
}
