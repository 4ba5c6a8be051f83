/// What kind of thing a person holds or touches. Bindings select devices by kind.
public enum DeviceKind: String, Sendable, Hashable, CaseIterable {
    case pen
    case eraser
    case touch
    case mouse
    case touchpad
}

extension DeviceKind {
    /// A pen's tip or its eraser: what writes on a tablet or a pen display.
    public var isPen: Bool { self == .pen || self == .eraser }
}
