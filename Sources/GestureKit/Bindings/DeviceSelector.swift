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

/// Which applications a binding applies to, by the WM_CLASS of the window under the contact
/// when it begins (instance or class name, case-insensitive, as touchegg and easystroke
/// users write them).
public enum ApplicationFilter: Sendable, Hashable {
    case everywhere
    /// Only in these applications; nowhere when the window is unknown.
    case only([String])
    /// Everywhere except these applications.
    case except([String])

    public func applies(to window: WindowClass?) -> Bool {
        switch self {
        case .everywhere:
            return true
        case .only(let names):
            guard let window else { return false }
            return names.contains { Self.matches($0, window) }
        case .except(let names):
            guard let window else { return true }
            return !names.contains { Self.matches($0, window) }
        }
    }

    private static func matches(_ name: String, _ window: WindowClass) -> Bool {
        let name = name.lowercased()
        return name == window.instance.lowercased() || name == window.className.lowercased()
    }
}
