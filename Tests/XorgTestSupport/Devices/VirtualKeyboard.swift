/// The server's `test-kbd`. Key codes are X key codes (evdev code + 8: 36 is Return on the
/// server's default keymap). Every helper waits until the server has processed it.
public final class VirtualKeyboard {
    public static let deviceName = "test-kbd"
    /// The inputtest socket it listens on, in the server\'s run directory.
    static let socketFileName = "kbd.sock"

    public let connection: InputTestConnection

    init(connection: InputTestConnection) {
        self.connection = connection
    }

    public func press(keycode: Int32) throws {
        try connection.send(.key(keycode: keycode, isPress: true))
        try connection.sync()
    }

    public func release(keycode: Int32) throws {
        try connection.send(.key(keycode: keycode, isPress: false))
        try connection.sync()
    }

    public func tap(keycode: Int32) throws {
        try press(keycode: keycode)
        try release(keycode: keycode)
    }
}
