/// An XI 2.2 touch class.
public struct TouchCapability: Sendable, Hashable {
    public enum Mode: String, Sendable, Hashable {
        /// A touchscreen: each touch is where it is on the screen.
        case direct
        /// A touchpad: touches move the pointer; their positions are not screen positions.
        case dependent
    }

    public var mode: Mode
    /// How many touches the device tracks at once.
    public var maxTouches: Int

    public init(mode: Mode, maxTouches: Int) {
        self.mode = mode
        self.maxTouches = maxTouches
    }
}
