/// A device the engine receives contacts from: a pen, a touchscreen, a mouse.
public struct InputDevice: Sendable, Hashable {
    public var id: Int
    public var name: String
    public var kind: DeviceKind
    /// Nil when the device has no pressure axis: force recognizers never attach to it.
    public var pressure: PressureRange?

    public init(id: Int, name: String, kind: DeviceKind, pressure: PressureRange?) {
        self.id = id
        self.name = name
        self.kind = kind
        self.pressure = pressure
    }

    public var hasPressure: Bool { pressure != nil }
}
