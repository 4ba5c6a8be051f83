import GestureKit
import X11Bridge

/// The bridge's own events as `run --json` prints them, one object a line with an `event` key
/// (docs/trace-format.md): what a script or a test reads instead of the log's words.
struct RunEventJSON {
    /// The config the bridge runs, and the file it watches for changes (nil: none).
    let config: ConfigSource
    let watching: String?

    func line(for event: BridgeEvent, bindings: BindingSet) -> [String] {
        var line = JSONLine()
        switch event {
        case .started(let devices, let screen, let monitors):
            line.add("event", "listening")
            line.add("config", config.description)
            if let watching { line.add("watching", watching) } else { line.addRaw("watching", "null") }
            var size = JSONLine()
            size.add("width", screen.width)
            size.add("height", screen.height)
            line.addRaw("screen", size.string)
            line.addRaw("monitors", Self.json(monitors))
            line.addRaw("devices", "[" + devices.map { Devices.json($0, bindings: bindings) }.joined(separator: ",") + "]")
        case .devicesChanged(let changes):
            return changes.added.map { device("device-added", $0, bindings) }
                + changes.updated.map { device("device-changed", $0, bindings) }
                + changes.removed.map { device in
                    var removed = JSONLine()
                    removed.add("event", device.isEnabled ? "device-removed" : "device-disabled")
                    removed.add("id", device.id)
                    removed.add("name", device.name)
                    return removed.string
                }
        case .screenResized(let size):
            line.add("event", "screen-resized")
            line.add("width", size.width)
            line.add("height", size.height)
        case .monitorsChanged(let monitors):
            line.add("event", "monitors-changed")
            line.addRaw("monitors", Self.json(monitors))
        case .monitorMissing(let binding, let monitor, let connected):
            line.add("event", "monitor-missing")
            line.add("binding", binding)
            line.add("monitor", monitor)
            line.add("connected", connected)
        case .configurationReloaded(let source, let reloaded):
            line.add("event", "config-reloaded")
            line.add("source", source)
            line.add("bindings", reloaded.bindings.map(\.name))
        case .configurationRejected(let source, let message):
            line.add("event", "config-rejected")
            line.add("source", source)
            line.add("message", message)
        case .reloadUnavailable:
            line.add("event", "reload-unavailable")
        case .configurationFileRemoved(let path):
            line.add("event", "config-removed")
            line.add("path", path)
        case .configurationUnwatched(let path, let reason):
            line.add("event", "config-unwatched")
            line.add("path", path)
            line.add("reason", reason)
        case .actionFailed(let action, let failure):
            // Not `gesture` and `action`: those name the gesture and action lines themselves.
            line.add("event", "action-failed")
            line.add("binding", action.gesture)
            line.add("kind", action.action.name)
            OutputFormatter.addFields(of: action.action, to: &line)
            line.add("message", "\(failure)")
        case .commandFailed(let message):
            line.add("event", "command-failed")
            line.add("message", message)
        case .releasedHeldInput(let reason):
            line.add("event", "released-held-input")
            line.add("reason", reason)
        case .xError(let error):
            line.add("event", "x-error")
            line.add("message", error.description)
        case .motionUnheard(let device):
            line.add("event", "motion-unheard")
            line.add("device", device)
        case .pressureDead(let device, let name, let dead):
            line.add("event", dead ? "pressure-dead" : "pressure-alive")
            line.add("device", device)
            line.add("name", name)
        case .stopping(let signal):
            line.add("event", "stopping")
            if let signal { line.add("signal", RunReporter.signalName(signal)) } else { line.addRaw("signal", "null") }
        case .engine, .inputOwnership:
            // Printed by the output formatter and as ownership objects.
            return []
        }
        return [line.string]
    }

    /// `[{"name", "x", "y", "width", "height", "primary", "width-mm", "height-mm", "dpi"}]`; `dpi` is null when the size is unknown.
    static func json(_ layout: MonitorLayout) -> String {
        "[" + layout.monitors.map { monitor in
            var line = JSONLine()
            line.add("name", monitor.name)
            line.add("x", monitor.frame.x)
            line.add("y", monitor.frame.y)
            line.add("width", monitor.frame.width)
            line.add("height", monitor.frame.height)
            line.addRaw("primary", monitor.isPrimary ? "true" : "false")
            line.add("width-mm", monitor.widthMillimeters)
            line.add("height-mm", monitor.heightMillimeters)
            if let dpi = monitor.dpi { line.add("dpi", dpi) } else { line.addRaw("dpi", "null") }
            return line.string
        }.joined(separator: ",") + "]"
    }

    private func device(_ name: String, _ device: X11Device, _ bindings: BindingSet) -> String {
        var line = JSONLine()
        line.add("event", name)
        line.addRaw("device", Devices.json(device, bindings: bindings))
        return line.string
    }
}
