import CX11

/// The XI2 events the bridge acts on, decoded into values.
public enum XI2Event: Sendable, Hashable {
    case raw(RawInput)
    /// Devices were added, removed, enabled, disabled, attached or detached: the catalog is stale.
    case hierarchyChanged(flags: Int32, devices: [Int])
    /// A device's classes changed (a new valuator range); `reason` is XISlaveSwitch or XIDeviceChange.
    case deviceChanged(device: Int, reason: Int32)
    /// A master pointer's event delivered through the bridge's own button grab.
    case grabbedPointer(GrabbedPointerEvent)
    /// A touch delivered through the bridge's own touch grab.
    case grabbedTouch(GrabbedTouchEvent)
    /// An XI2 event type the bridge selected for a later purpose but does not decode.
    case unhandled(type: Int32)
}

extension XConnection {
    /// Decodes an XI2 generic event; nil for core events and other extensions' events.
    public func decodeXI2(_ event: inout XEvent) -> XI2Event? {
        guard event.type == GenericEvent, event.xcookie.extension == xinputOpcode else { return nil }
        guard XGetEventData(display, &event.xcookie) != 0, let data = event.xcookie.data else { return nil }
        defer { XFreeEventData(display, &event.xcookie) }
        let type = event.xcookie.evtype
        if let kind = RawInput.kind(ofEventType: type) {
            let raw = data.assumingMemoryBound(to: XIRawEvent.self).pointee
            let values = ValuatorValues.decode(mask: UnsafePointer(raw.valuators.mask), maskLength: raw.valuators.mask_len,
                                               values: UnsafePointer(raw.valuators.values))
            return .raw(RawInput(kind: kind, device: Int(raw.deviceid), source: Int(raw.sourceid), detail: Int(raw.detail),
                                 flags: raw.flags, serverTime: UInt(raw.time), axisValues: values))
        }
        if let kind = GrabbedPointerEvent.kind(ofEventType: type) {
            let device = data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
            return .grabbedPointer(GrabbedPointerEvent(kind: kind, master: Int(device.deviceid), source: Int(device.sourceid),
                                                       button: kind == .motion ? 0 : Int(device.detail)))
        }
        if let kind = GrabbedTouchEvent.kind(ofEventType: type) {
            let device = data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
            return .grabbedTouch(GrabbedTouchEvent(kind: kind, master: Int(device.deviceid), source: Int(device.sourceid),
                                                   touchID: Int(device.detail)))
        }
        switch type {
        case XI_HierarchyChanged:
            let hierarchy = data.assumingMemoryBound(to: XIHierarchyEvent.self).pointee
            var devices: [Int] = []
            if let info = hierarchy.info {
                for index in 0..<Int(max(0, hierarchy.num_info)) where info[index].flags != 0 {
                    devices.append(Int(info[index].deviceid))
                }
            }
            return .hierarchyChanged(flags: hierarchy.flags, devices: devices)
        case XI_DeviceChanged:
            let changed = data.assumingMemoryBound(to: XIDeviceChangedEvent.self).pointee
            return .deviceChanged(device: Int(changed.deviceid), reason: changed.reason)
        default:
            return .unhandled(type: type)
        }
    }
}
