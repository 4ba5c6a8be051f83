/// The server's `test-pen`: a tablet stylus with absolute position, pressure and proximity,
/// driven like a person uses a pen. Every helper waits until the server has processed it.
///
/// The inputtest driver presses no button on its own, so `down` presses button 1 the way a real
/// tablet driver does when the tip touches: in proximity first, then the press carrying the
/// position and the pressure.
public final class VirtualPen: DrivenPen {
    public static let deviceName = "test-pen"
    /// The inputtest socket it listens on, in the server\'s run directory.
    static let socketFileName = "pen.sock"
    /// The "Abs Pressure" range the server reports for this device.
    public static let pressureMaximum = 1000

    private var link: InputTestLink
    /// The driver's client connection; a new one after the device is disabled and enabled
    /// (`reconnect`).
    public var connection: InputTestConnection { link.connection }
    public private(set) var position: PixelPoint?
    /// The last pressure sent, normalized 0...1.
    public private(set) var pressure: Double = 0
    public private(set) var isInProximity = false
    public private(set) var isTipDown = false

    init(connection: InputTestConnection, screenWidth: Int, screenHeight: Int) {
        link = InputTestLink(connection, screenWidth: screenWidth, screenHeight: screenHeight,
                             pressureMaximum: Self.pressureMaximum)
    }

    /// Connects again after `xinput disable` and `xinput enable` of the device. The pen starts
    /// over as the server has it then: out of proximity, tip up.
    public func reconnect(timeout: Double = 5) throws {
        try link.reconnect(timeout: timeout)
        isInProximity = false
        isTipDown = false
        pressure = 0
    }

    /// Moves the pen above the surface to `position`, entering proximity if it is out.
    public func hover(to position: PixelPoint) throws {
        if isTipDown {
            try up()
        }
        try enterProximity(at: position)
        try connection.send(.motion(isAbsolute: true, valuators: link.scale.valuators(at: position, normalizedPressure: 0)))
        self.position = position
        pressure = 0
        try connection.sync()
    }

    /// Puts the tip down at `position` with `pressure` (0...1 of the device's range): button 1
    /// goes down carrying the position and pressure valuators.
    public func down(at position: PixelPoint, pressure: Double = 0.5) throws {
        if isTipDown {
            try up()
        }
        try hover(to: position)
        try connection.send(.button(
            number: 1, isPress: true, isAbsolute: true,
            valuators: link.scale.valuators(at: position, normalizedPressure: pressure)))
        isTipDown = true
        self.pressure = pressure
        try connection.sync()
    }

    /// Moves the pen to `position`; the pressure stays as it was unless given. While the tip is
    /// up the pen hovers, and the pressure stays 0.
    public func move(to position: PixelPoint, pressure: Double? = nil) throws {
        try enterProximity(at: position)
        let newPressure = isTipDown ? (pressure ?? self.pressure) : 0
        try connection.send(.motion(
            isAbsolute: true, valuators: link.scale.valuators(at: position, normalizedPressure: newPressure)))
        self.position = position
        self.pressure = newPressure
        try connection.sync()
    }

    /// Lifts the tip: button 1 goes up with zero pressure; the pen stays in proximity.
    public func up() throws {
        guard isTipDown, let position else { return }
        try connection.send(.button(
            number: 1, isPress: false, isAbsolute: true,
            valuators: link.scale.valuators(at: position, normalizedPressure: 0)))
        isTipDown = false
        pressure = 0
        try connection.sync()
    }

    /// Takes the pen away from the tablet (out of proximity), lifting the tip first.
    public func leave() throws {
        try up()
        guard isInProximity else { return }
        var valuators = InputTestValuators()
        if let position {
            valuators = link.scale.valuators(at: position, normalizedPressure: 0)
        }
        try connection.send(.proximity(isIn: false, valuators: valuators))
        isInProximity = false
        try connection.sync()
    }

    /// Presses and releases a stylus button (2 and 3 are the barrel buttons) where the pen is.
    public func click(button: Int32) throws {
        try setButton(button, pressed: true)
        try setButton(button, pressed: false)
    }

    public func setButton(_ button: Int32, pressed: Bool) throws {
        let position = self.position ?? (0, 0)
        try enterProximity(at: position)
        try connection.send(.button(
            number: button, isPress: pressed, isAbsolute: true,
            valuators: link.scale.valuators(at: position, normalizedPressure: isTipDown ? self.pressure : 0)))
        try connection.sync()
    }

    private func enterProximity(at position: PixelPoint) throws {
        guard !isInProximity else { return }
        try connection.send(.proximity(isIn: true, valuators: link.scale.valuators(at: position, normalizedPressure: 0)))
        isInProximity = true
    }
}
