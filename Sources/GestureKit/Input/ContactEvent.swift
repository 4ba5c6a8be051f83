/// Where a contact is in its life.
public enum ContactPhase: String, Sendable, Hashable, CaseIterable {
    /// Tip or finger down.
    case begin
    case move
    /// Lifted.
    case end
    /// The system took the contact away (device removed, grab lost).
    case cancel
    /// A pen moving in proximity without touching: no contact exists.
    case hover
}

/// One input event as it arrives from a device, live or from a trace.
public struct ContactEvent: Sendable, Hashable {
    /// Seconds on the engine's clock (trace time, or monotonic time live).
    public var time: Double
    public var device: Int
    /// 0 for a pen or mouse; each finger of a touchscreen has its own id.
    public var contact: Int
    public var phase: ContactPhase
    public var position: Point
    /// Raw pressure in device units, nil for a device without pressure.
    public var pressure: Double?
    /// The application window under a contact as it begins, for per-application bindings;
    /// nil when unknown (traces do not record it).
    public var window: WindowClass?

    public init(time: Double, device: Int, contact: Int, phase: ContactPhase, position: Point, pressure: Double? = nil,
                window: WindowClass? = nil) {
        self.time = time
        self.device = device
        self.contact = contact
        self.phase = phase
        self.position = position
        self.pressure = pressure
        self.window = window
    }
}

/// An X window's WM_CLASS: the instance name and the class name (`"gimp"`, `"Gimp"`).
public struct WindowClass: Sendable, Hashable, CustomStringConvertible {
    public var instance: String
    public var className: String

    public init(instance: String, className: String) {
        self.instance = instance
        self.className = className
    }

    public var description: String { "\(instance).\(className)" }
}

/// Identifies one contact across its events.
public struct ContactKey: Sendable, Hashable, Comparable {
    public var device: Int
    public var contact: Int

    public init(device: Int, contact: Int) {
        self.device = device
        self.contact = contact
    }

    public static func < (lhs: ContactKey, rhs: ContactKey) -> Bool {
        (lhs.device, lhs.contact) < (rhs.device, rhs.contact)
    }
}
