import CX11

/// One raw XI2 event, copied out of XCB's event buffer.
///
/// Raw events come straight from the device, before any window or grab decides where the
/// input goes, and every client that selects them on the root window gets them. They carry
/// valuators in device units and no screen position.
public struct RawInput: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case motion
        case buttonPress
        case buttonRelease
        case touchBegin
        case touchUpdate
        case touchEnd
    }

    public var kind: Kind
    /// The device the event is reported for: a slave, or a master relaying a slave.
    public var device: Int
    /// The physical device that produced it.
    public var source: Int
    /// The button number, or the touch id.
    public var detail: Int
    public var flags: Int32
    /// Server milliseconds (wraps after 49 days).
    public var serverTime: UInt
    /// The valuators the event carries, in device units, ordered by valuator number.
    public var axisValues: [AxisValue]

    public init(kind: Kind, device: Int, source: Int, detail: Int, flags: Int32 = 0, serverTime: UInt = 0,
                axisValues: [AxisValue]) {
        self.kind = kind
        self.device = device
        self.source = source
        self.detail = detail
        self.flags = flags
        self.serverTime = serverTime
        self.axisValues = axisValues
    }

    public init(kind: Kind, device: Int, source: Int, detail: Int, flags: Int32 = 0, serverTime: UInt = 0,
                valuators: [Int: Double]) {
        self.init(kind: kind, device: device, source: source, detail: detail, flags: flags, serverTime: serverTime,
                  axisValues: valuators.sorted { $0.key < $1.key }.map { AxisValue(number: $0.key, value: $0.value) })
    }

    /// Valuator number to value, in device units.
    public var valuators: [Int: Double] {
        Dictionary(axisValues.map { ($0.number, $0.value) }) { _, last in last }
    }

    /// Button and motion events the server made up from a touch, for clients that do not
    /// read touch events; the touch itself arrives as touch events.
    public var isPointerEmulated: Bool { flags & Int32(XIPointerEmulated) != 0 }

    /// The kind for an XI2 raw event type, nil for other types.
    public static func kind(ofEventType type: Int32) -> Kind? {
        switch type {
        case XI_RawMotion: return .motion
        case XI_RawButtonPress: return .buttonPress
        case XI_RawButtonRelease: return .buttonRelease
        case XI_RawTouchBegin: return .touchBegin
        case XI_RawTouchUpdate: return .touchUpdate
        case XI_RawTouchEnd: return .touchEnd
        default: return nil
        }
    }
}
