import CX11

/// Where a device sits in the XI2 hierarchy.
public enum DeviceUse: String, Sendable, Hashable {
    case masterPointer = "master pointer"
    case masterKeyboard = "master keyboard"
    case slavePointer = "slave pointer"
    case slaveKeyboard = "slave keyboard"
    case floatingSlave = "floating slave"

    public init?(xiUse: Int32) {
        switch xiUse {
        case XIMasterPointer: self = .masterPointer
        case XIMasterKeyboard: self = .masterKeyboard
        case XISlavePointer: self = .slavePointer
        case XISlaveKeyboard: self = .slaveKeyboard
        case XIFloatingSlave: self = .floatingSlave
        default: return nil
        }
    }

    /// Physical devices; masters only relay them.
    public var isSlave: Bool {
        switch self {
        case .slavePointer, .slaveKeyboard, .floatingSlave: return true
        case .masterPointer, .masterKeyboard: return false
        }
    }
}
