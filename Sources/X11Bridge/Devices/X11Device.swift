import GestureKit

/// An XI2 device as the bridge sees it: its place in the hierarchy, its axes, and what
/// kind of thing a person holds or touches (nil when it produces no contacts).
public struct X11Device: Sendable, Hashable {
    public var id: Int
    public var name: String
    public var use: DeviceUse
    /// The master a slave is attached to (for a master, its paired master; for a floating
    /// slave nothing: X leaves it 0, no device's id). `master` says it for slaves.
    public var attachment: Int
    public var isEnabled: Bool
    public var buttonCount: Int
    public var valuators: [ValuatorAxis]
    public var touch: TouchCapability?
    /// Nil for keyboards, masters, the XTEST devices and tablet pads.
    public var kind: DeviceKind?
    /// What the driver says the device is (XI 1's type atom); nil when it says nothing.
    public var type: DeviceType?
    public var driver: InputDriver
    /// The vendor and product ids the driver gives it (the property "Device Product ID", set
    /// by evdev, libinput and wacom); nil where it gives none.
    public var product: DeviceProduct?
    /// The part of the screen a pen's or touchscreen's surface is mapped to (its "Coordinate
    /// Transformation Matrix"); nil for the whole screen and for devices that move the pointer.
    public var mappedArea: MappedArea?

    public init(id: Int, name: String, use: DeviceUse, attachment: Int = 0, isEnabled: Bool = true, buttonCount: Int = 0,
                valuators: [ValuatorAxis] = [], touch: TouchCapability? = nil, kind: DeviceKind? = nil,
                type: DeviceType? = nil, driver: InputDriver = .unknown, product: DeviceProduct? = nil) {
        self.id = id
        self.name = name
        self.use = use
        self.attachment = attachment
        self.isEnabled = isEnabled
        self.buttonCount = buttonCount
        self.valuators = valuators
        self.touch = touch
        self.kind = kind
        self.type = type
        self.driver = driver
        self.product = product
    }

    /// The X server reports a pointer's position on valuators 0 and 1.
    public var xAxis: ValuatorAxis? { valuators.first { $0.number == 0 } }
    public var yAxis: ValuatorAxis? { valuators.first { $0.number == 1 } }

    /// Found by label, so the number can differ between drivers; none where the label is not to
    /// be believed: a puck, lens or pad declares pressure it never moves, and libinput posts a
    /// tablet tool's pressure on valuator 2 whatever the labels say (a tool without pressure
    /// gets its tilt or rotation labels from 2 on, and one labelled pressure elsewhere is not).
    /// xf86-input-wacom declares pressure on its finger-touch devices too and sends only
    /// positions there (`wcmEmitTouch`): a 2-in-1's touchscreen would read as pressing nothing
    /// after every start, resume or re-plug until two contacts showed it dead.
    public var pressureAxis: ValuatorAxis? {
        if type?.declaresDeadPressure == true { return nil }
        if driver == .wacom, type == .touchscreen || type == .touchpad { return nil }
        guard let axis = valuators.first(where: { $0.isPressure && $0.isAbsolute }) else { return nil }
        if driver == .libinput, touch == nil, axis.number != Self.libinputPressureValuator { return nil }
        return axis
    }

    /// Where xf86-input-libinput posts a tablet tool's pressure.
    static let libinputPressureValuator = 2

    /// Whether the pressure axis reads anything but its minimum now: a device pressing at this
    /// moment (X keeps only the last value, which a pen's lift sets back to the minimum). Nil
    /// for a touchscreen as for a device without pressure: a touch's end carries only what
    /// changed in its last frame, so X keeps the pressure its last touch had before it lifted.
    public var pressureHasMoved: Bool? {
        guard let axis = pressureAxis, touch == nil else { return nil }
        return axis.value > axis.min
    }

    /// Absolute axes map straight onto the screen; relative ones (a mouse) move the pointer.
    public var hasAbsolutePosition: Bool { xAxis?.isAbsolute == true && yAxis?.isAbsolute == true }

    /// Whether contacts from this device go to the engine now.
    public var isContactSource: Bool { kind != nil && isEnabled && use.isSlave }

    /// The master pointer or keyboard an attached slave moves; nil for a floating slave (one a
    /// client grabbed on its own floats while the grab lasts, the bridge's kept strokes
    /// included) and for a master.
    public var master: Int? {
        switch use {
        case .slavePointer, .slaveKeyboard: return attachment
        case .floatingSlave, .masterPointer, .masterKeyboard: return nil
        }
    }

    /// The device as the engine and traces know it.
    public var inputDevice: InputDevice? {
        guard let kind else { return nil }
        return InputDevice(id: id, name: name, kind: kind, pressure: pressureAxis?.pressureRange, product: product,
                           mappedArea: mappedArea)
    }

    /// What the device's learned state is kept under: its name, and its ids where X says them.
    public var learningKey: String { LearningKey.key(name: name, product: product) }

    /// The device without its axes' current values, which change with every movement: two
    /// queries describe the same device when their definitions are equal.
    public var definition: X11Device {
        var copy = self
        for index in copy.valuators.indices { copy.valuators[index].value = 0 }
        return copy
    }

    /// Whether `other` is this device mapped to another part of the screen, and nothing more.
    public func differsOnlyInMapping(from other: X11Device) -> Bool {
        var mapped = other.definition
        mapped.mappedArea = mappedArea
        return mappedArea != other.mappedArea && mapped == definition
    }
}
