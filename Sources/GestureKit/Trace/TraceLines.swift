/// A trace's lines as `record` writes them (docs/trace-format.md): the header, then one line
/// for each input event, each encoded through `JSONLineEncoder`. Reading a trace stays with
/// `TraceStream`, which takes more than these (keys it does not know, a header without a screen).

/// `{"trace":1,"screen":{"width","height"},"devices":[…]}`; `screen` left out when unknown.
public struct TraceHeaderLine: Codable, Sendable, Hashable {
    public var trace: Int
    public var screen: ScreenSize?
    public var devices: [TraceDeviceLine]

    public init(_ header: TraceHeader) {
        trace = TraceHeader.version
        screen = header.screen
        devices = header.devices.map(TraceDeviceLine.init)
    }
}

/// A device of the header: `{"id","name","kind","pressure"}`, `pressure` null without an axis.
public struct TraceDeviceLine: Codable, Sendable, Hashable {
    public var id: Int
    public var name: String
    public var kind: DeviceKind
    @NullWhenNil public var pressure: PressureRangeLine?

    public init(_ device: InputDevice) {
        id = device.id
        name = device.name
        kind = device.kind
        pressure = device.pressure.map(PressureRangeLine.init)
    }
}

/// An input event: `{"t","device","contact","phase","x","y","pressure"}`, `pressure` left out
/// for a device without one.
public struct TraceEventLine: Codable, Sendable, Hashable {
    public var t: Double
    public var device: Int
    public var contact: Int
    public var phase: ContactPhase
    public var x: Double
    public var y: Double
    public var pressure: Double?

    public init(_ event: ContactEvent) {
        t = event.time
        device = event.device
        contact = event.contact
        phase = event.phase
        x = event.position.x
        y = event.position.y
        pressure = event.pressure
    }
}

extension DeviceKind: Codable {}
extension ContactPhase: Codable {}
