/// The `touch_type` of an inputtest touch message: the driver takes XI2's event type numbers.
public enum InputTestTouchPhase: UInt32, Sendable {
    case begin = 18
    case update = 19
    case end = 20
}
