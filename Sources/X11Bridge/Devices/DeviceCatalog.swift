import CX11
import GestureKit

/// Every XI2 device the server has, as of one XIQueryDevice: the bridge's one table of devices.
/// `InputListener` keeps it current through hot-plug, and everything else asks it (the bridge a
/// device's kind and master, `devices`, `doctor`, `calibrate`); the input source and the engine
/// take what they need of a device from it when it comes or changes.
public struct DeviceCatalog: Sendable, Hashable {
    public private(set) var devices: [X11Device]
    /// Where each id is in `devices`: asked on every event.
    private var positions: [Int: Int] = [:]

    public init(devices: [X11Device]) {
        self.devices = devices.sorted { $0.id < $1.id }
        for (position, device) in self.devices.enumerated() where positions[device.id] == nil {
            positions[device.id] = position
        }
    }

    public subscript(id: Int) -> X11Device? {
        positions[id].map { devices[$0] }
    }

    /// The device `id` when it is a contact source (enabled, a pen, eraser, touchscreen,
    /// touchpad or mouse attached to a master): one the bridge listens to.
    public func contactSource(_ id: Int) -> X11Device? {
        self[id].flatMap { $0.isContactSource ? $0 : nil }
    }

    /// The virtual core pointer's XTEST device, through which the bridge's clicks come.
    public var xtestPointer: X11Device? {
        devices.first { $0.use == .slavePointer && $0.attachment == 2 && $0.name.hasSuffix("XTEST pointer") }
    }

    /// The enabled pens, erasers, touchscreens, touchpads and mice.
    public var contactSources: [X11Device] {
        devices.filter(\.isContactSource)
    }

    /// Pens and erasers set to relative mode (`xsetwacom set … Mode Relative`): they move the
    /// pointer as a mouse and are no contact source; set back, nothing says so but their input.
    public var relativePens: [X11Device] {
        devices.filter { $0.use.isSlave && $0.kind == nil && ($0.type == .stylus || $0.type == .eraser) }
    }

    /// Pen tablets whose pen has not come near them yet: xf86-input-libinput shows a tablet
    /// first as a device without axes (XI type TABLET, attached as a keyboard), and adds its
    /// pen's device ("NAME Pen (0x...)") at the pen's first proximity. Empty once each has a
    /// pen or eraser.
    public var tabletsAwaitingPen: [X11Device] {
        devices.filter { tablet in
            (tablet.use == .slavePointer || tablet.use == .slaveKeyboard) && tablet.isEnabled && tablet.driver == .libinput
                && tablet.type == .tablet
                && tablet.xAxis == nil
                && !contactSources.contains { $0.kind?.isPen == true && $0.name.hasPrefix(tablet.name + " ") }
        }
    }

    /// What to tell a person about such a tablet.
    public static func awaitingPenAdvice(_ tablet: X11Device) -> String {
        "\"\(tablet.name)\" is a pen tablet whose pen has not come near it yet: its X driver (libinput) adds the pen's device then. Hover the pen over the tablet once, and it is there from then on"
    }

    /// What happened to the contact sources between `old` and this catalog.
    /// `leftMeanwhile`: devices the server said went away (removed, disabled, detached) since
    /// `old`; one that is back by now went and came back: removed, then added.
    public func changes(since old: DeviceCatalog, leftMeanwhile: Set<Int> = []) -> DeviceChanges {
        let before = Dictionary(old.contactSources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(contactSources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var changes = DeviceChanges()
        for device in contactSources {
            if let previous = before[device.id], !leftMeanwhile.contains(device.id) {
                if device.differsOnlyInMapping(from: previous) {
                    changes.remapped.append(device)
                } else if previous.definition != device.definition {
                    changes.updated.append(device)
                }
            } else {
                changes.added.append(device)
            }
        }
        for device in old.contactSources {
            if after[device.id] == nil {
                // Report the device as it is now (disabled, floating) when it still exists, and
                // by its old self when its id is another device's now (found in review of a
                // tablet PC: its cover's keyboard, back first with the touchpad's id, was
                // reported removed).
                changes.removed.append(self[device.id].flatMap { $0.name == device.name ? $0 : nil } ?? device)
            } else if leftMeanwhile.contains(device.id) {
                var gone = device
                gone.isEnabled = false
                changes.removed.append(gone)
            }
        }
        return changes
    }

    /// Asks the server for every device.
    /// The values `id`'s valuators hold now, in device units, by valuator number; nil when the
    /// server knows no such device. One round trip.
    static func currentValuators(of id: Int, on connection: XConnection) -> [Int: Double]? {
        var count: Int32 = 0
        guard let infos = connection.queryingDevices({ XIQueryDevice(connection.display, Int32(id), &count) }) else { return nil }
        defer { XIFreeDeviceInfo(infos) }
        guard count > 0, let classes = infos[0].classes else { return nil }
        var values: [Int: Double] = [:]
        for index in 0..<Int(max(0, infos[0].num_classes)) {
            guard let any = classes[index], any.pointee.type == XIValuatorClass else { continue }
            let valuator = UnsafeMutableRawPointer(any).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
            values[Int(valuator.number)] = valuator.value
        }
        return values
    }

    /// Whether `id`'s x and y axes are absolute now (a pen set back to its tablet's mode after
    /// `xsetwacom set … Mode Relative`, which sends no event); false when it is gone. One round trip.
    static func hasAbsolutePosition(_ id: Int, on connection: XConnection) -> Bool {
        var count: Int32 = 0
        guard let infos = connection.queryingDevices({ XIQueryDevice(connection.display, Int32(id), &count) }) else { return false }
        defer { XIFreeDeviceInfo(infos) }
        guard count > 0, let classes = infos[0].classes else { return false }
        var absolute: Set<Int32> = []
        for index in 0..<Int(max(0, infos[0].num_classes)) {
            guard let any = classes[index], any.pointee.type == XIValuatorClass else { continue }
            let valuator = UnsafeMutableRawPointer(any).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
            if valuator.mode == XIModeAbsolute { absolute.insert(valuator.number) }
        }
        return absolute.isSuperset(of: [0, 1])
    }

    public static func query(_ connection: XConnection) -> DeviceCatalog {
        var count: Int32 = 0
        guard let infos = XIQueryDevice(connection.display, XIAllDevices, &count) else {
            return DeviceCatalog(devices: [])
        }
        defer { XIFreeDeviceInfo(infos) }
        let types = deviceTypes(connection)
        let markers = InputDriver.allCases.compactMap { driver in
            driver.marker.map { (driver, XInternAtom(connection.display, $0, 1)) }
        }.filter { $0.1 != 0 }
        let productAtom = XInternAtom(connection.display, productProperty, 1)
        let matrixAtom = XInternAtom(connection.display, matrixProperty, 1)
        // A device listed above may be gone by the time its properties are asked for.
        let devices = connection.queryingDevices {
            (0..<Int(max(0, count))).compactMap { index -> X11Device? in
                guard var device = describe(infos[index], connection: connection, types: types) else { return nil }
                let properties = device.use.isSlave ? propertyNames(of: device.id, connection: connection) : []
                device.driver = markers.first { properties.contains($0.1) }?.0 ?? .unknown
                if productAtom != 0, properties.contains(productAtom) {
                    device.product = product(of: device.id, property: productAtom, connection: connection)
                }
                device.kind = DeviceClassifier.kind(of: device)
                if matrixAtom != 0, properties.contains(matrixAtom), device.hasAbsolutePosition,
                   device.kind == .pen || device.kind == .eraser || device.kind == .touch {
                    device.mappedArea = mappedArea(of: device.id, property: matrixAtom, connection: connection)
                }
                return device
            }
        }
        return DeviceCatalog(devices: devices)
    }

    /// Each device's XI 1 type atom, by id (one request for all).
    private static func deviceTypes(_ connection: XConnection) -> [Int: DeviceType] {
        var count: Int32 = 0
        guard let list = XListInputDevices(connection.display, &count) else { return [:] }
        defer { XFreeDeviceList(list) }
        var types: [Int: DeviceType] = [:]
        for index in 0..<Int(max(0, count)) {
            let info = list[index]
            if let name = connection.atomName(info.type) { types[Int(info.id)] = DeviceType(atomName: name) }
        }
        return types
    }

    /// The properties a device has (its driver's marker among them, and "Device Product ID"
    /// where the driver sets it); none when it has gone meanwhile.
    private static func propertyNames(of id: Int, connection: XConnection) -> Set<Atom> {
        var count: Int32 = 0
        guard let properties = XIListProperties(connection.display, Int32(id), &count) else { return [] }
        defer { XFree(properties) }
        return Set((0..<Int(max(0, count))).map { properties[$0] })
    }

    /// The device property xf86-input-evdev, -libinput and -wacom set to the device's vendor
    /// and product ids (XI_PROP_PRODUCT_ID: two CARD32).
    static let productProperty = "Device Product ID"

    /// The vendor and product ids in the device's "Device Product ID"; nil when the property is
    /// not two 32-bit integers.
    private static func product(of id: Int, property: Atom, connection: XConnection) -> DeviceProduct? {
        propertyItems(of: id, property, count: 2, connection: connection) { type in type == Atom(XA_INTEGER) }
            .flatMap { DeviceProduct(ids: $0) }
    }

    /// The property the server keeps every pointer's mapping onto the screen in (nine FLOAT,
    /// row by row), which desktops and `xinput map-to-output` set.
    public static let matrixProperty = "Coordinate Transformation Matrix"

    /// The part of the screen the device is mapped to; nil for all of it, and when the
    /// property is not nine 32-bit floats.
    private static func mappedArea(of id: Int, property: Atom, connection: XConnection) -> MappedArea? {
        propertyItems(of: id, property, count: 9, connection: connection) { connection.atomName($0) == "FLOAT" }
            .flatMap { MappedArea(matrix: $0.map { Double(Float32(bitPattern: $0)) }) }
    }

    /// A device property of `count` 32-bit items of a type `isType` accepts, as they are; nil
    /// when it is anything else, or the device has gone. XI2 hands 32-bit items over as 32 bits
    /// each (not as longs, as XGetWindowProperty does).
    private static func propertyItems(of id: Int, _ property: Atom, count: Int, connection: XConnection,
                                      isType: (Atom) -> Bool) -> [UInt32]? {
        var type: Atom = 0
        var format: Int32 = 0
        var items: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XIGetProperty(connection.display, Int32(id), property, 0, Int(count), 0, Atom(AnyPropertyType), &type, &format,
                            &items, &remaining, &data) == Success else { return nil }
        defer { if let data { XFree(data) } }
        guard let data, format == 32, items == UInt(count), isType(type) else { return nil }
        let raw = UnsafeRawPointer(data)
        return (0..<count).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self) }
    }

    private static func describe(_ info: XIDeviceInfo, connection: XConnection, types: [Int: DeviceType]) -> X11Device? {
        guard let use = DeviceUse(xiUse: info.use) else { return nil }
        let name = info.name.map { String(cString: $0) } ?? "device \(info.deviceid)"
        var device = X11Device(id: Int(info.deviceid), name: name, use: use, attachment: Int(info.attachment),
                               isEnabled: info.enabled != 0, type: types[Int(info.deviceid)])
        if let classes = info.classes {
            for index in 0..<Int(max(0, info.num_classes)) {
                guard let any = classes[index] else { continue }
                let raw = UnsafeMutableRawPointer(any)
                switch any.pointee.type {
                case XIButtonClass:
                    device.buttonCount = Int(raw.assumingMemoryBound(to: XIButtonClassInfo.self).pointee.num_buttons)
                case XIValuatorClass:
                    let valuator = raw.assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                    device.valuators.append(ValuatorAxis(
                        number: Int(valuator.number), label: connection.atomName(valuator.label) ?? "",
                        min: valuator.min, max: valuator.max, value: valuator.value,
                        isAbsolute: valuator.mode == XIModeAbsolute))
                case XITouchClass:
                    let touch = raw.assumingMemoryBound(to: XITouchClassInfo.self).pointee
                    device.touch = TouchCapability(mode: touch.mode == XIDirectTouch ? .direct : .dependent,
                                                   maxTouches: Int(touch.num_touches))
                default:
                    continue
                }
            }
        }
        device.valuators.sort { $0.number < $1.number }
        return device
    }
}

extension DeviceUse {
    /// The use XIQueryDevice reports; nil for one XI2 does not define.
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
}
