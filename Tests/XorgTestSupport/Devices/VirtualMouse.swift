/// The server's `test-mouse`, on servers started with one (`HeadlessXorg(mouse: true)`): a
/// plain relative mouse with buttons and no pressure, moving one pixel per unit (no
/// acceleration). It shares the core pointer with the pen, so it clicks where the pointer is.
/// Every helper waits until the server has processed it.
public final class VirtualMouse {
    public static let deviceName = "test-mouse"
    /// The name it has on a server started with `HeadlessXorg(mouse: true, mouseName:)` set to
    /// it: a touchpad by its name (the bridge tells touchpads by their names, and a touchpad
    /// clicks through its master's buttons as a mouse does).
    public static let touchpadName = "test-touchpad"
    /// The inputtest socket it listens on, in the server's run directory.
    static let socketFileName = "mouse.sock"

    public let connection: InputTestConnection
    /// The buttons it holds down now.
    public private(set) var buttonsDown: Set<Int32> = []

    init(connection: InputTestConnection) {
        self.connection = connection
    }

    /// Moves the pointer by `dx`, `dy` pixels.
    public func move(by dx: Double, _ dy: Double) throws {
        try connection.send(.motion(isAbsolute: false, valuators: InputTestValuators(x: dx, y: dy, pressure: nil)))
        try connection.sync()
    }

    public func press(button: Int32 = 1) throws {
        try connection.send(.button(number: button, isPress: true, isAbsolute: false, valuators: InputTestValuators()))
        buttonsDown.insert(button)
        try connection.sync()
    }

    public func release(button: Int32 = 1) throws {
        try connection.send(.button(number: button, isPress: false, isAbsolute: false, valuators: InputTestValuators()))
        buttonsDown.remove(button)
        try connection.sync()
    }

    public func click(button: Int32 = 1) throws {
        try press(button: button)
        try release(button: button)
    }
}
