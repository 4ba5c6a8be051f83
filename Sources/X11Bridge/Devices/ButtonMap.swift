import CX11

/// A pointer button map: the logical button each physical button is, as the server applies it.
/// A device's own map (`xinput set-button-map`) comes first, then its master's (the core
/// pointer map, `xmodmap -e "pointer = 3 2 1"`): an application sees `master.logical(of:
/// device.logical(of: physical))`, while the raw events the bridge follows say the physical
/// button. Logical 0 is a button turned off. A button beyond the map is itself.
public struct ButtonMap: Sendable, Hashable {
    /// Logical buttons, physical button 1 first.
    public private(set) var logical: [Int]

    public init(_ logical: [Int]) {
        self.logical = logical
    }

    /// Every button itself.
    public static let identity = ButtonMap([])

    /// The logical button `physical` is.
    public func logical(of physical: Int) -> Int {
        physical >= 1 && physical <= logical.count ? logical[physical - 1] : physical
    }

    /// The lowest physical button that is `logical`; nil when none is (turned off, or another
    /// button took its number).
    public func physical(of logical: Int) -> Int? {
        guard logical >= 1 else { return nil }
        return (1...Swift.max(self.logical.count, logical)).first { self.logical(of: $0) == logical }
    }

    /// This map, then `next`: what the master (`next`) makes of a button of its slave (this).
    public func then(_ next: ButtonMap) -> ButtonMap {
        let count = Swift.max(logical.count, next.logical.count)
        return ButtonMap((0..<count).map { next.logical(of: logical(of: $0 + 1)) })
    }

    /// The button that begins a contact: the physical button that is the person's primary,
    /// logical 1 (the right one on a left-handed mouse). Nil when no button is.
    public var primary: Int? { physical(of: 1) }
}

extension XConnection {
    /// A device's own button map (XI1 GetDeviceButtonMapping, which takes any device, masters
    /// included, without opening it); nil when the server refuses (a device gone, one with no
    /// buttons). One round trip.
    func buttonMap(of device: Int) -> ButtonMap? {
        guard let id = XID(exactly: device) else { return nil }
        var handle = XDevice(device_id: id, num_classes: 0, classes: nil)
        var map = [UInt8](repeating: 0, count: 256)
        var count: Int32 = 0
        // One round trip; a device gone meanwhile answers with an error, dropped: no map.
        queryingDevices {
            count = XGetDeviceButtonMapping(display, &handle, &map, UInt32(map.count))
        }
        guard count > 0 else { return nil }
        return ButtonMap(map.prefix(Int(min(count, Int32(map.count)))).map(Int.init))
    }
}
