/// One of the bridge's own events as `run --json` prints it (docs/trace-format.md): a line with
/// an `event` key, then the keys that event has, in the contract's order. Built through its
/// static functions, one for each event; read back strictly (every key the event has is
/// required).
public struct RunEventLine: Codable, Sendable, Hashable {
    public enum Event: String, Codable, Sendable, Hashable, CaseIterable {
        case listening
        case deviceAdded = "device-added"
        case deviceChanged = "device-changed"
        case deviceRemoved = "device-removed"
        case deviceDisabled = "device-disabled"
        case screenResized = "screen-resized"
        case monitorsChanged = "monitors-changed"
        case monitorMissing = "monitor-missing"
        case deviceMissing = "device-missing"
        case configReloaded = "config-reloaded"
        case configRejected = "config-rejected"
        case configRemoved = "config-removed"
        case configUnwatched = "config-unwatched"
        case reloadUnavailable = "reload-unavailable"
        case actionFailed = "action-failed"
        case commandFailed = "command-failed"
        case releasedHeldInput = "released-held-input"
        case xError = "x-error"
        case motionUnheard = "motion-unheard"
        case pressureDead = "pressure-dead"
        case pressureAlive = "pressure-alive"
        case suspended
        case resumed
        case outputDropped = "output-dropped"
        case stopping
    }

    public var event: Event
    /// `listening`: the config file, or `<built-in default>`, and the file watched (nil: none).
    public var config: String?
    public var watching: String?
    public var screen: ScreenSize?
    /// `listening`, `monitors-changed`: RandR's monitors, in its order.
    public var monitors: [MonitorLine]?
    /// `listening`: the devices, as `devices --json` lists them (without `learned`).
    public var devices: [DeviceLine]?
    /// `device-added`, `device-changed`: the device.
    public var device: DeviceLine?
    /// `motion-unheard`, `pressure-dead`, `pressure-alive`: the device's id (its key is `device`).
    public var deviceID: Int?
    /// `device-removed`, `device-disabled`: the device's id and name; `pressure-dead`,
    /// `pressure-alive`: its name; `device-missing`: the name a binding gives.
    public var id: Int?
    public var name: String?
    /// `screen-resized`.
    public var width: Double?
    public var height: Double?
    /// `monitor-missing`: the knob's binding, the monitor it names, those connected.
    /// `device-missing`: the binding, and the devices connected (with `name`).
    /// `action-failed`, `command-failed`: the binding whose action failed, or whose command ended badly.
    public var binding: String?
    public var monitor: String?
    public var connected: [String]?
    /// `device-missing`: the connected device's name closest to `name`, nil when none is close.
    public var suggestion: String?
    /// `config-reloaded`, `config-rejected`: what was read (a path, or `SIGHUP`).
    public var source: String?
    /// `config-reloaded`: the bindings' names.
    public var bindings: [String]?
    /// `config-removed`, `config-unwatched`.
    public var path: String?
    /// `config-unwatched`, `released-held-input`, `stopping`.
    public var reason: String?
    /// `action-failed`: the action's kind and its fields, as its action line says them.
    public var kind: String?
    public var action: ActionFields?
    /// `command-failed`: the command as the binding gives it.
    public var argv: [String]?
    /// `config-rejected`, `action-failed`, `command-failed`, `x-error`.
    public var message: String?
    /// `stopping`: the signal's name, nil when none.
    public var signal: String?
    /// `output-dropped`: how many lines were dropped where it stands.
    public var lines: Int?

    private init(_ event: Event) {
        self.event = event
    }
}

extension RunEventLine {
    public static func listening(config: String, watching: String?, screen: ScreenSize, monitors: [MonitorLine],
                                 devices: [DeviceLine]) -> Self {
        var line = Self(.listening)
        line.config = config
        line.watching = watching
        line.screen = screen
        line.monitors = monitors
        line.devices = devices
        return line
    }

    /// `device-added` or `device-changed`.
    public static func device(_ event: Event, _ device: DeviceLine) -> Self {
        var line = Self(event)
        line.device = device
        return line
    }

    /// `device-removed` or `device-disabled`.
    public static func deviceGone(_ event: Event, id: Int, name: String) -> Self {
        var line = Self(event)
        line.id = id
        line.name = name
        return line
    }

    public static func screenResized(_ size: ScreenSize) -> Self {
        var line = Self(.screenResized)
        line.width = size.width
        line.height = size.height
        return line
    }

    public static func monitorsChanged(_ monitors: [MonitorLine]) -> Self {
        var line = Self(.monitorsChanged)
        line.monitors = monitors
        return line
    }

    public static func monitorMissing(binding: String, monitor: String, connected: [String]) -> Self {
        var line = Self(.monitorMissing)
        line.binding = binding
        line.monitor = monitor
        line.connected = connected
        return line
    }

    public static func deviceMissing(binding: String, name: String, connected: [String], suggestion: String?) -> Self {
        var line = Self(.deviceMissing)
        line.binding = binding
        line.name = name
        line.connected = connected
        line.suggestion = suggestion
        return line
    }

    public static func configReloaded(source: String, bindings: [String]) -> Self {
        var line = Self(.configReloaded)
        line.source = source
        line.bindings = bindings
        return line
    }

    public static func configRejected(source: String, message: String) -> Self {
        var line = Self(.configRejected)
        line.source = source
        line.message = message
        return line
    }

    public static let reloadUnavailable = Self(.reloadUnavailable)
    /// Stopped from its terminal (Ctrl-Z), having let go of everything first.
    public static let suspended = Self(.suspended)
    /// Continued (`fg`), listening again.
    public static let resumed = Self(.resumed)

    public static func configRemoved(path: String) -> Self {
        var line = Self(.configRemoved)
        line.path = path
        return line
    }

    public static func configUnwatched(path: String, reason: String) -> Self {
        var line = Self(.configUnwatched)
        line.path = path
        line.reason = reason
        return line
    }

    /// Not `gesture` and `action` keys: those name the gesture and action lines themselves.
    public static func actionFailed(binding: String, action: Action, message: String) -> Self {
        var line = Self(.actionFailed)
        line.binding = binding
        line.kind = action.name
        line.action = ActionFields(action)
        line.message = message
        return line
    }

    /// A command an action started ended badly (`message`: how, with its pid).
    public static func commandFailed(binding: String, argv: [String], message: String) -> Self {
        var line = Self(.commandFailed)
        line.binding = binding
        line.argv = argv
        line.message = message
        return line
    }

    /// `x-error`.
    public static func message(_ event: Event, _ message: String) -> Self {
        var line = Self(event)
        line.message = message
        return line
    }

    public static func releasedHeldInput(reason: String) -> Self {
        var line = Self(.releasedHeldInput)
        line.reason = reason
        return line
    }

    public static func motionUnheard(device: Int) -> Self {
        var line = Self(.motionUnheard)
        line.deviceID = device
        return line
    }

    public static func pressure(dead: Bool, device: Int, name: String) -> Self {
        var line = Self(dead ? .pressureDead : .pressureAlive)
        line.deviceID = device
        line.name = name
        return line
    }

    /// `reason`: `signal`, `terminal-closed`, `taken-over`, `server-lost` or `output-closed`.
    public static func stopping(signal: String?, reason: String) -> Self {
        var line = Self(.stopping)
        line.signal = signal
        line.reason = reason
        return line
    }

    /// Where lines are missing: a reader that stopped reading let more wait than the output
    /// keeps (`DetachedWriter`), and `lines` were dropped there.
    public static func outputDropped(lines: Int) -> Self {
        var line = Self(.outputDropped)
        line.lines = lines
        return line
    }
}

extension RunEventLine {
    private enum CodingKeys: String, CodingKey {
        case event, config, watching, screen, monitors, devices, device, id, name, width, height, binding, monitor,
             connected, suggestion, source, bindings, path, reason, kind, argv, message, signal, lines
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(event, forKey: .event)
        switch event {
        case .listening:
            try container.encode(config, forKey: .config)
            try container.encode(watching, forKey: .watching)
            try container.encode(screen, forKey: .screen)
            try container.encode(monitors, forKey: .monitors)
            try container.encode(devices, forKey: .devices)
        case .deviceAdded, .deviceChanged:
            try container.encode(device, forKey: .device)
        case .deviceRemoved, .deviceDisabled:
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
        case .screenResized:
            try container.encode(width, forKey: .width)
            try container.encode(height, forKey: .height)
        case .monitorsChanged:
            try container.encode(monitors, forKey: .monitors)
        case .monitorMissing:
            try container.encode(binding, forKey: .binding)
            try container.encode(monitor, forKey: .monitor)
            try container.encode(connected, forKey: .connected)
        case .deviceMissing:
            try container.encode(binding, forKey: .binding)
            try container.encode(name, forKey: .name)
            try container.encode(connected, forKey: .connected)
            try container.encode(suggestion, forKey: .suggestion)
        case .configReloaded:
            try container.encode(source, forKey: .source)
            try container.encode(bindings, forKey: .bindings)
        case .configRejected:
            try container.encode(source, forKey: .source)
            try container.encode(message, forKey: .message)
        case .configRemoved:
            try container.encode(path, forKey: .path)
        case .configUnwatched:
            try container.encode(path, forKey: .path)
            try container.encode(reason, forKey: .reason)
        case .reloadUnavailable, .suspended, .resumed:
            break
        case .actionFailed:
            try container.encode(binding, forKey: .binding)
            try container.encode(kind, forKey: .kind)
            // The action's own keys, in the same object.
            try action.encode(to: encoder)
            try container.encode(message, forKey: .message)
        case .commandFailed:
            try container.encode(binding, forKey: .binding)
            try container.encode(argv, forKey: .argv)
            try container.encode(message, forKey: .message)
        case .xError:
            try container.encode(message, forKey: .message)
        case .releasedHeldInput:
            try container.encode(reason, forKey: .reason)
        case .motionUnheard:
            try container.encode(deviceID, forKey: .device)
        case .pressureDead, .pressureAlive:
            try container.encode(deviceID, forKey: .device)
            try container.encode(name, forKey: .name)
        case .outputDropped:
            try container.encode(lines, forKey: .lines)
        case .stopping:
            try container.encode(signal, forKey: .signal)
            try container.encode(reason, forKey: .reason)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(Event.self, forKey: .event))
        func required<Value: Decodable>(_ key: CodingKeys) throws -> Value {
            try container.decode(Value.self, forKey: key)
        }
        /// A key that must be there, with a value or null.
        func nullable<Value: Decodable>(_ key: CodingKeys) throws -> Value? {
            try container.decode(NullWhenNil<Value>.self, forKey: key).wrappedValue
        }
        switch event {
        case .listening:
            config = try required(.config)
            watching = try nullable(.watching)
            screen = try required(.screen)
            monitors = try required(.monitors)
            devices = try required(.devices)
        case .deviceAdded, .deviceChanged:
            device = try required(.device)
        case .deviceRemoved, .deviceDisabled:
            id = try required(.id)
            name = try required(.name)
        case .screenResized:
            width = try required(.width)
            height = try required(.height)
        case .monitorsChanged:
            monitors = try required(.monitors)
        case .monitorMissing:
            binding = try required(.binding)
            monitor = try required(.monitor)
            connected = try required(.connected)
        case .deviceMissing:
            binding = try required(.binding)
            name = try required(.name)
            connected = try required(.connected)
            suggestion = try nullable(.suggestion)
        case .configReloaded:
            source = try required(.source)
            bindings = try required(.bindings)
        case .configRejected:
            source = try required(.source)
            message = try required(.message)
        case .configRemoved:
            path = try required(.path)
        case .configUnwatched:
            path = try required(.path)
            reason = try required(.reason)
        case .reloadUnavailable, .suspended, .resumed:
            break
        case .actionFailed:
            binding = try required(.binding)
            let kind: String = try required(.kind)
            self.kind = kind
            action = try ActionFields.decode(from: decoder, kind: kind)
            message = try required(.message)
        case .commandFailed:
            binding = try required(.binding)
            argv = try required(.argv)
            message = try required(.message)
        case .xError:
            message = try required(.message)
        case .releasedHeldInput:
            reason = try required(.reason)
        case .motionUnheard:
            deviceID = try required(.device)
        case .pressureDead, .pressureAlive:
            deviceID = try required(.device)
            name = try required(.name)
        case .outputDropped:
            lines = try required(.lines)
        case .stopping:
            signal = try nullable(.signal)
            reason = try required(.reason)
        }
    }
}

/// A RandR monitor: `{"name","x","y","width","height","primary","width-mm","height-mm","dpi"}`,
/// `dpi` null when the physical size is unknown.
public struct MonitorLine: Codable, Sendable, Hashable {
    public var name: String
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public var primary: Bool
    public var widthMillimeters: Int
    public var heightMillimeters: Int
    @NullWhenNil public var dpi: Double?

    public init(_ monitor: Monitor) {
        name = monitor.name
        x = monitor.frame.x
        y = monitor.frame.y
        width = monitor.frame.width
        height = monitor.frame.height
        primary = monitor.isPrimary
        widthMillimeters = monitor.widthMillimeters
        heightMillimeters = monitor.heightMillimeters
        dpi = monitor.dpi
    }

    private enum CodingKeys: String, CodingKey {
        case name, x, y, width, height, primary
        case widthMillimeters = "width-mm"
        case heightMillimeters = "height-mm"
        case dpi
    }
}
