/// A device the engine receives contacts from: a pen, a touchscreen, a mouse.
public struct InputDevice: Sendable, Hashable {
    public var id: Int
    public var name: String
    public var kind: DeviceKind
    /// Nil when the device has no pressure axis: force recognizers never attach to it.
    public var pressure: PressureRange?
    /// Its vendor and product ids, where X says them: what its learned state is kept under,
    /// beside its name.
    public var product: DeviceProduct?

    public init(id: Int, name: String, kind: DeviceKind, pressure: PressureRange?, product: DeviceProduct? = nil) {
        self.id = id
        self.name = name
        self.kind = kind
        self.pressure = pressure
        self.product = product
    }

    public var hasPressure: Bool { pressure != nil }
}
