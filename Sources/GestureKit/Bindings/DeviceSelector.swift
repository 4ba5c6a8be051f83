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
/// users write them, a version after a dash left out).
public enum ApplicationFilter: Sendable, Hashable {
    /// Whether some application's windows pass both filters, names compared as they match
    /// windows: ignoring case, a name covering itself with a version after a dash. Found in
    /// review of a config at scale: `only: [Gimp]` beside `except: [gimp]` was said to overlap.
    public func overlaps(_ other: ApplicationFilter) -> Bool {
        switch (self, other) {
        case (.only(let these), .only(let those)):
            these.contains { this in those.contains { Self.covers($0, this) || Self.covers(this, $0) } }
        case (.only(let these), .except(let those)), (.except(let those), .only(let these)):
            these.contains { this in !those.contains { Self.covers($0, this) } }
        case (.everywhere, _), (_, .everywhere), (.except, .except): true
        }
    }

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

    /// A name matches a WM_CLASS instance or class name equal to it, or equal to it with a
    /// version after a dash: GIMP 2.10 names its windows `gimp-2.10` and `Gimp-2.10`, and
    /// `gimp` is what a person writes (and what GIMP 3 is).
    /// Whether a list naming `name` leaves the program `program` (as another list writes it)
    /// alone too: `gimp` covers `gimp-2.10`.
    static func covers(_ name: String, _ program: String) -> Bool {
        matches(name, WindowClass(instance: program, className: program))
    }

    private static func matches(_ name: String, _ window: WindowClass) -> Bool {
        let name = name.lowercased()
        return [window.instance, window.className].contains { written in
            let written = written.lowercased()
            guard written.hasPrefix(name) else { return false }
            let rest = written.dropFirst(name.count)
            guard let dash = rest.first else { return true }
            let version = rest.dropFirst()
            return dash == "-" && version.first?.isNumber == true && version.allSatisfy { $0.isNumber || $0 == "." }
        }
    }
}
