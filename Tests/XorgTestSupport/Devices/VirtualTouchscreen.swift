/// The server's `test-touch`: a direct-touch screen (XI 2.2) with "Abs MT Pressure".
/// Every helper waits until the server has processed it.
public final class VirtualTouchscreen {
    public static let deviceName = "test-touch"
    /// The inputtest socket it listens on, in the server\'s run directory.
    static let socketFileName = "touch.sock"
    /// The "Abs MT Pressure" range the server reports for this device.
    public static let pressureMaximum = 2047
    /// The `TouchCount` the server is configured with.
    public static let maximumTouches = 10

    private var link: InputTestLink
    /// The driver's client connection; a new one after the device is disabled and enabled
    /// (`reconnect`).
    public var connection: InputTestConnection { link.connection }
    /// The touches currently down, by id, with their last position and normalized pressure.
    public private(set) var activeTouches: [UInt32: (position: PixelPoint, pressure: Double)] = [:]

    init(connection: InputTestConnection, screenWidth: Int, screenHeight: Int) {
        link = InputTestLink(connection, screenWidth: screenWidth, screenHeight: screenHeight,
                             pressureMaximum: Self.pressureMaximum)
    }

    /// Connects again after `xinput disable` and `xinput enable` of the device. No touch is
    /// down on the new connection (the server ended the old ones with the device).
    public func reconnect(timeout: Double = 5) throws {
        try link.reconnect(timeout: timeout)
        activeTouches.removeAll()
    }

    /// A finger touches the screen at `position` with `pressure` (0...1 of the device's range).
    public func begin(id: UInt32 = 0, at position: PixelPoint, pressure: Double = 0.5) throws {
        if activeTouches[id] != nil {
            try end(id: id)
        }
        try connection.send(.touch(
            id: id, phase: .begin, valuators: link.scale.valuators(at: position, normalizedPressure: pressure)))
        activeTouches[id] = (position, pressure)
        try connection.sync()
    }

    /// The finger moves or presses harder; position and pressure stay as they were unless given.
    public func update(id: UInt32 = 0, to position: PixelPoint? = nil, pressure: Double? = nil) throws {
        guard let current = activeTouches[id] else {
            return try begin(id: id, at: position ?? (0, 0), pressure: pressure ?? 0.5)
        }
        let newPosition = position ?? current.position
        let newPressure = pressure ?? current.pressure
        try connection.send(.touch(
            id: id, phase: .update, valuators: link.scale.valuators(at: newPosition, normalizedPressure: newPressure)))
        activeTouches[id] = (newPosition, newPressure)
        try connection.sync()
    }

    /// The finger lifts where it last was.
    public func end(id: UInt32 = 0) throws {
        guard let current = activeTouches[id] else { return }
        try connection.send(.touch(
            id: id, phase: .end, valuators: link.scale.valuators(at: current.position, normalizedPressure: 0)))
        activeTouches[id] = nil
        try connection.sync()
    }

    /// The finger lifts as evdev and libinput say it: an end with no position or pressure, the
    /// server keeping the last it had.
    public func lift(id: UInt32 = 0) throws {
        guard activeTouches[id] != nil else { return }
        try connection.send(.touch(id: id, phase: .end, valuators: InputTestValuators()))
        activeTouches[id] = nil
        try connection.sync()
    }

    /// A quick touch and lift at `position`.
    public func tap(id: UInt32 = 0, at position: PixelPoint, pressure: Double = 0.5) throws {
        try begin(id: id, at: position, pressure: pressure)
        try end(id: id)
    }
}
