/// Where a device sits in the XI2 hierarchy.
public enum DeviceUse: String, Sendable, Hashable {
    case masterPointer = "master pointer"
    case masterKeyboard = "master keyboard"
    case slavePointer = "slave pointer"
    case slaveKeyboard = "slave keyboard"
    case floatingSlave = "floating slave"

    /// Physical devices; masters only relay them.
    public var isSlave: Bool {
        switch self {
        case .slavePointer, .slaveKeyboard, .floatingSlave: return true
        case .masterPointer, .masterKeyboard: return false
        }
    }
}
