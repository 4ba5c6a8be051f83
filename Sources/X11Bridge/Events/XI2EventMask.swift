import CX11

/// A set of XI2 event types for one device id, as the bit mask XISelectEvents takes.
///
/// Xlib's XISetMask and XIMaskLen are macros Swift cannot import; the mask is small enough to
/// build here, where it can be tested. The server keeps one mask per (client, window, device):
/// a second selection for the same device replaces the first, so everything the bridge wants
/// for a device goes into one mask.
public struct XI2EventMask: Sendable, Hashable {
    public var device: Int32
    public private(set) var events: Set<Int32>

    public init(device: Int32, events: Set<Int32>) {
        self.device = device
        self.events = events
    }

    public func contains(_ event: Int32) -> Bool {
        events.contains(event)
    }

    public mutating func insert(_ event: Int32) {
        events.insert(event)
    }

    /// Runs `body` with the mask as the C struct grab requests take, valid only inside it.
    func withCMask<T>(_ body: (inout XIEventMask) -> T) -> T {
        var bytes = self.bytes
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var mask = XIEventMask(deviceid: device, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            return body(&mask)
        }
    }

    /// Bit n of byte n/8 is set for event type n; just long enough for the highest type.
    public var bytes: [UInt8] {
        guard let highest = events.max(), highest >= 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(highest) / 8 + 1)
        for event in events where event >= 0 {
            bytes[Int(event) / 8] |= UInt8(1) << UInt8(event % 8)
        }
        return bytes
    }

    /// The events of `bytes`, for reading a mask back.
    public static func events(in bytes: [UInt8]) -> Set<Int32> {
        var events: Set<Int32> = []
        for (index, byte) in bytes.enumerated() {
            for bit in 0..<8 where byte & (UInt8(1) << UInt8(bit)) != 0 {
                events.insert(Int32(index * 8 + bit))
            }
        }
        return events
    }

    /// What the bridge listens to on the root window: raw events reach every client whatever
    /// window an application selected on or grabbed, and the hierarchy tells of devices
    /// coming and going. XI_HierarchyChanged must be selected for XIAllDevices: with
    /// XIAllMasterDevices the server answers BadValue and drops the whole request.
    public static let rootListening = XI2EventMask(device: XIAllDevices, events: rawInput.union(deviceChanges))

    /// The raw input of a device: what the engine's contacts are made of.
    static let rawInput: Set<Int32> = [
        XI_RawMotion, XI_RawButtonPress, XI_RawButtonRelease,
        XI_RawTouchBegin, XI_RawTouchUpdate, XI_RawTouchEnd,
    ]
    /// Devices coming and going, their axes changing, and their properties (a device mapped to
    /// another part of the screen).
    static let deviceChanges: Set<Int32> = [XI_HierarchyChanged, XI_DeviceChanged, XI_PropertyEvent]
    /// What the bridge's own grab of a device it took off its master selects (`PointerOwnership`).
    static let detachedDevice: Set<Int32> = [
        XI_ButtonPress, XI_ButtonRelease, XI_RawButtonPress, XI_RawButtonRelease, XI_RawMotion,
    ]

    /// Raw input from the given devices only, and device changes from all: a master relays
    /// its slaves' raw events a second time, which `rootListening` would deliver too. Devices
    /// in `unheardMotion` send their buttons and touches but not their motion.
    /// `pressesOf`: devices heard only as they press and release (a pen set to relative mode,
    /// whose first press after it is set back tells that it is; its releases keep the count of
    /// its side buttons down right).
    public static func listening(toRawInputOf devices: [Int], unheardMotion: Set<Int> = [],
                                 pressesOf pressing: [Int] = []) -> [XI2EventMask] {
        [XI2EventMask(device: XIAllDevices, events: deviceChanges)]
            + devices.map { rawInput(of: $0, motion: !unheardMotion.contains($0)) }
            + pressing.map { XI2EventMask(device: Int32($0), events: [XI_RawButtonPress, XI_RawButtonRelease]) }
    }

    /// One device's raw input, with or without its motion.
    public static func rawInput(of device: Int, motion: Bool) -> XI2EventMask {
        XI2EventMask(device: Int32(device), events: motion ? rawInput : rawInput.subtracting([XI_RawMotion]))
    }
}

extension XConnection {
    /// Selects `masks` on `window` and reports what the server refused.
    public func select(_ masks: [XI2EventMask], on window: Window) throws(BridgeSetupError) {
        let layouts = masks.map(\.bytes)
        let total = layouts.reduce(0) { $0 + $1.count }
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, total))
        defer { storage.deallocate() }
        var cMasks: [XIEventMask] = []
        var offset = 0
        for (mask, bytes) in zip(masks, layouts) {
            (storage + offset).initialize(from: bytes, count: bytes.count)
            cMasks.append(XIEventMask(deviceid: mask.device, mask_len: Int32(bytes.count), mask: storage + offset))
            offset += bytes.count
        }
        let errors = checked {
            XISelectEvents(display, window, &cMasks, Int32(cMasks.count))
        }
        if let first = errors.first {
            throw .selectionFailed(first.description)
        }
    }

    /// Selects one mask on `window` without a round trip: an error the server answers with
    /// reaches the event loop like any other.
    func selectUnchecked(_ mask: XI2EventMask, on window: Window) {
        mask.withCMask { mask in
            _ = XISelectEvents(display, window, &mask, 1)
        }
    }
}
