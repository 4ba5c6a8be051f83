/// A request of the inputtest driver's socket protocol, version 1.1, with its exact wire bytes.
///
/// Every message starts with `struct { uint32_t length; int32_t type; }`; the rest is the
/// native C struct of that type, padding included. The driver trusts `length`, so a wrong size
/// desynchronises the stream silently: the sizes are tested.
public enum InputTestMessage: Sendable, Equatable {
    case clientVersion(major: UInt16, minor: UInt16)
    case waitForSync
    case motion(isAbsolute: Bool, valuators: InputTestValuators)
    case proximity(isIn: Bool, valuators: InputTestValuators)
    case button(number: Int32, isPress: Bool, isAbsolute: Bool, valuators: InputTestValuators)
    case key(keycode: Int32, isPress: Bool)
    case touch(id: UInt32, phase: InputTestTouchPhase, valuators: InputTestValuators)

    public static let protocolVersion = (major: UInt16(1), minor: UInt16(1))

    /// The protocol's `xf86ITEventType` numbers.
    public var typeNumber: Int32 {
        switch self {
        case .clientVersion: 0
        case .waitForSync: 1
        case .motion: 2
        case .proximity: 3
        case .button: 4
        case .key: 5
        case .touch: 6
        }
    }

    public var encoded: [UInt8] {
        var writer = NativeByteWriter(reservingCapacity: 1064)
        writer.append(UInt32(0))  // length, filled in below
        writer.append(typeNumber)
        switch self {
        case .clientVersion(let major, let minor):
            writer.append(major)
            writer.append(minor)
        case .waitForSync:
            break
        case .motion(let isAbsolute, let valuators):
            writer.append(UInt32(isAbsolute ? 1 : 0))
            valuators.write(to: &writer)
        case .proximity(let isIn, let valuators):
            writer.append(UInt32(isIn ? 1 : 0))
            valuators.write(to: &writer)
        case .button(let number, let isPress, let isAbsolute, let valuators):
            writer.append(Int32(isAbsolute ? 1 : 0))
            writer.append(number)
            writer.append(UInt32(isPress ? 1 : 0))
            valuators.write(to: &writer)
        case .key(let keycode, let isPress):
            writer.append(keycode)
            writer.append(UInt32(isPress ? 1 : 0))
        case .touch(let id, let phase, let valuators):
            writer.append(id)
            writer.append(phase.rawValue)
            valuators.write(to: &writer)
        }
        // A C struct's size is rounded up to the alignment of its widest field.
        writer.align(to: structAlignment)
        writer.overwrite(UInt32(writer.bytes.count), at: 0)
        return writer.bytes
    }

    private var structAlignment: Int {
        switch self {
        case .clientVersion, .waitForSync, .key: MemoryLayout<UInt32>.alignment
        case .motion, .proximity, .button, .touch: MemoryLayout<Double>.alignment
        }
    }
}
