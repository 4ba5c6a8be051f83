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
    /// The part of the screen its surface is mapped to; nil for the whole screen, and for a
    /// device that moves the pointer (a mouse). A knob measured from the screen's corners is
    /// measured from this area's for its contacts.
    public var mappedArea: MappedArea?

    public init(id: Int, name: String, kind: DeviceKind, pressure: PressureRange?, product: DeviceProduct? = nil,
                mappedArea: MappedArea? = nil) {
        self.id = id
        self.name = name
        self.kind = kind
        self.pressure = pressure
        self.product = product
        self.mappedArea = mappedArea
    }

    public var hasPressure: Bool { pressure != nil }

    /// Whether `other` is this device, mapped to the same or another part of the screen.
    public func isDeclared(like other: InputDevice) -> Bool {
        var mapped = other
        mapped.mappedArea = mappedArea
        return mapped == self
    }
}
