/// Which devices a binding listens to: a kind (`pen`, `touch`, ...) or a device's name.
public enum DeviceSelector: Sendable, Hashable, CustomStringConvertible {
    case kind(DeviceKind)
    case named(String)

    public func matches(_ device: InputDevice) -> Bool {
        switch self {
        case .kind(let kind):
            return device.kind == kind
        case .named(let name):
            return device.name == name
        }
    }

    public var description: String {
        switch self {
        case .kind(let kind): return kind.rawValue
        case .named(let name): return "\"\(name)\""
        }
    }
}

/// Whether a binding wants devices with a pressure axis, without one, or either.
public enum PressureRequirement: String, Sendable, Hashable, CaseIterable {
    case any
    case required
    case absent

    public func accepts(_ device: InputDevice) -> Bool {
        switch self {
        case .any: return true
        case .required: return device.hasPressure
        case .absent: return !device.hasPressure
        }
    }
}
