import CX11

/// The XI2 events the bridge acts on, decoded into values.
public enum XI2Event: Sendable, Hashable {
    case raw(RawInput)
    /// Devices were added, removed, enabled, disabled, attached or detached: the catalog is stale.
    /// `left`: the devices this change took away (removed, disabled or detached), which may be
    /// back by the time the catalog is read again.
    case hierarchyChanged(flags: Int32, devices: [Int], left: [Int])
    /// A device's classes changed (a new valuator range), or a master switched slaves.
    case deviceChanged(device: Int, reason: DeviceChangeReason)
    /// One of a device's properties was set, changed or deleted.
    case propertyChanged(device: Int, property: Atom)
    /// A master pointer's event delivered through the bridge's own button grab.
    case grabbedPointer(GrabbedPointerEvent)
    /// A touch delivered through the bridge's own touch grab.
    case grabbedTouch(GrabbedTouchEvent)
    /// An XI2 event of a type the bridge does not decode.
    case unhandled(type: Int32)
}

/// Why an XI_DeviceChanged event came.
public struct DeviceChangeReason: RawRepresentable, Sendable, Hashable {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// A master now relays another of its slaves (XISlaveSwitch).
    public static let slaveSwitch = DeviceChangeReason(rawValue: XISlaveSwitch)
    /// The device's own classes changed (XIDeviceChange).
    public static let deviceChange = DeviceChangeReason(rawValue: XIDeviceChange)
}

extension XConnection {
    /// Decodes an XI2 generic event; nil for core events and other extensions' events.
    public func decodeXI2(_ event: borrowing XCBEvent) -> XI2Event? {
        guard event.code == XCB_GE_GENERIC else { return nil }
        let generic = event.read(as: xcb_ge_generic_event_t.self)
        guard Int32(generic.pointee.extension) == xinputOpcode else { return nil }
        let type = Int32(generic.pointee.event_type)
        if let kind = RawInput.kind(ofEventType: type) {
            // Raw button, motion and touch events share one layout; XCB's accessors find the
            // valuator mask and values behind the fixed part.
            let raw = event.read(as: xcb_input_raw_button_press_event_t.self)
            let values = ValuatorValues.decode(mask: xcb_input_raw_button_press_valuator_mask(raw),
                                               maskWords: xcb_input_raw_button_press_valuator_mask_length(raw),
                                               values: xcb_input_raw_button_press_axisvalues(raw),
                                               valueCount: xcb_input_raw_button_press_axisvalues_length(raw))
            return .raw(RawInput(kind: kind, device: Int(raw.pointee.deviceid), source: Int(raw.pointee.sourceid),
                                 detail: Int(raw.pointee.detail), flags: Int32(bitPattern: raw.pointee.flags),
                                 serverTime: UInt(raw.pointee.time), axisValues: values))
        }
        if let grabbed = GrabbedPointerEvent.decode(event, type: type) {
            return .grabbedPointer(grabbed)
        }
        if let grabbed = GrabbedTouchEvent.decode(event, type: type) {
            return .grabbedTouch(grabbed)
        }
        switch type {
        case XI_HierarchyChanged:
            let hierarchy = event.read(as: xcb_input_hierarchy_event_t.self)
            let infos = UnsafeBufferPointer(start: xcb_input_hierarchy_infos(hierarchy),
                                            count: Int(max(0, xcb_input_hierarchy_infos_length(hierarchy))))
            let devices = infos.filter { $0.flags != 0 }.map { Int($0.deviceid) }
            let leaving = UInt32(XISlaveRemoved | XIDeviceDisabled | XISlaveDetached)
            let left = infos.filter { $0.flags & leaving != 0 }.map { Int($0.deviceid) }
            return .hierarchyChanged(flags: Int32(bitPattern: hierarchy.pointee.flags), devices: devices, left: left)
        case XI_DeviceChanged:
            let changed = event.read(as: xcb_input_device_changed_event_t.self).pointee
            return .deviceChanged(device: Int(changed.deviceid), reason: DeviceChangeReason(rawValue: Int32(changed.reason)))
        case XI_PropertyEvent:
            let changed = event.read(as: xcb_input_property_event_t.self).pointee
            return .propertyChanged(device: Int(changed.deviceid), property: Atom(changed.property))
        default:
            return .unhandled(type: type)
        }
    }
}
