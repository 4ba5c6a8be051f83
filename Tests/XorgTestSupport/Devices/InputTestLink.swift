/// A virtual device's line to its inputtest driver: the client connection, a new one after the
/// device is disabled and enabled, and the scale of the device's axes on this screen.
struct InputTestLink {
    private(set) var connection: InputTestConnection
    let scale: AbsoluteAxisScale

    init(_ connection: InputTestConnection, screenWidth: Int, screenHeight: Int, pressureMaximum: Int) {
        self.connection = connection
        scale = AbsoluteAxisScale(screenWidth: screenWidth, screenHeight: screenHeight,
                                  pressureMaximum: Double(pressureMaximum))
    }

    /// Connects again after `xinput disable` and `xinput enable` of the device (see
    /// `InputTestConnection.reconnected`).
    mutating func reconnect(timeout: Double) throws {
        connection = try connection.reconnected(timeout: timeout)
    }
}
