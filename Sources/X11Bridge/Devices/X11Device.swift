import GestureKit

/// An XI2 device as the bridge sees it: its place in the hierarchy, its axes, and what
/// kind of thing a person holds or touches (nil when it produces no contacts).
public struct X11Device: Sendable, Hashable {
    public var id: Int
    public var name: String
    public var use: DeviceUse
    /// The master a slave is attached to (for a master, its paired master).
    public var attachment: Int
    public var isEnabled: Bool
    public var buttonCount: Int
    public var valuators: [ValuatorAxis]
    public var touch: TouchCapability?
    /// Nil for keyboards, masters, the XTEST devices and tablet pads.
    public var kind: DeviceKind?

    public init(id: Int, name: String, use: DeviceUse, attachment: Int = 0, isEnabled: Bool = true, buttonCount: Int = 0,
                valuators: [ValuatorAxis] = [], touch: TouchCapability? = nil, kind: DeviceKind? = nil) {
        self.id = id
        self.name = name
        self.use = use
        self.attachment = attachment
        self.isEnabled = isEnabled
        self.buttonCount = buttonCount
        self.valuators = valuators
        self.touch = touch
        self.kind = kind
    }

    /// The X server reports a pointer's position on valuators 0 and 1.
    public var xAxis: ValuatorAxis? { valuators.first { $0.number == 0 } }
    public var yAxis: ValuatorAxis? { valuators.first { $0.number == 1 } }

    /// Found by label, so the number can differ between drivers.
    public var pressureAxis: ValuatorAxis? { valuators.first { $0.isPressure && $0.isAbsolute } }

    /// Absolute axes map straight onto the screen; relative ones (a mouse) move the pointer.
    public var hasAbsolutePosition: Bool { xAxis?.isAbsolute == true && yAxis?.isAbsolute == true }

    /// Whether contacts from this device go to the engine now.
    public var isContactSource: Bool { kind != nil && isEnabled && use.isSlave }

    /// The device as the engine and traces know it.
    public var inputDevice: InputDevice? {
        guard let kind else { return nil }
        return InputDevice(id: id, name: name, kind: kind, pressure: pressureAxis?.pressureRange)
    }

    /// The device without its axes' current values, which change with every movement: two
    /// queries describe the same device when their definitions are equal.
    public var definition: X11Device {
        var copy = self
        for index in copy.valuators.indices { copy.valuators[index].value = 0 }
        return copy
    }
}
