import GestureKit

/// Tells pens, erasers, touchscreens, touchpads and mice apart from what XI2 reports.
///
/// The driver's XI 1 type comes first (`DeviceType`: STYLUS, ERASER, CURSOR, PAD from both
/// wacom and libinput); then the touch class, the axes, and the names drivers give (wacom:
/// "... Pen stylus", "... Pen eraser", "... Pad pad", "... Finger touch"; libinput:
/// "... Pen (0x...)", "... Eraser (0x...)").
public enum DeviceClassifier {
    public static func kind(of device: X11Device) -> DeviceKind? {
        guard device.use == .slavePointer || device.use == .floatingSlave else { return nil }
        let name = device.name.lowercased()
        // The XTEST devices are where synthetic input, the bridge's own clicks included, comes from.
        if name.contains("xtest") { return nil }
        // What the driver says comes first (wacom and libinput both say it).
        switch device.type {
        case .pad?, .keyboard?:
            return nil
        case .stylus?:
            return device.hasAbsolutePosition ? .pen : nil
        case .eraser?:
            return device.hasAbsolutePosition ? .eraser : nil
        case .cursor?:
            // A puck or lens: it points like a mouse and presses nothing.
            return device.xAxis == nil ? nil : .mouse
        case .touchpad?:
            return .touchpad
        case .touchscreen?, .mouse?, .tablet?, .other?, nil:
            break
        }
        if let touch = device.touch {
            return touch.mode == .direct ? .touch : .touchpad
        }
        guard device.xAxis != nil, device.yAxis != nil else { return nil }
        if ["touchpad", "touch pad", "trackpad", "synaptics", "glidepoint", "clickpad"].contains(where: name.contains) {
            return .touchpad
        }
        // A tablet's button pad has axes (rings, strips) but is not something one draws with.
        if name.hasSuffix(" pad") { return nil }
        if name.contains("eraser") { return .eraser }
        if device.hasAbsolutePosition && device.pressureAxis != nil { return .pen }
        if device.hasAbsolutePosition && ["stylus", " pen", "pen "].contains(where: name.contains) { return .pen }
        if device.hasAbsolutePosition && ["touchscreen", "touch screen", "finger touch", "touch"].contains(where: name.contains) {
            return .touch
        }
        return .mouse
    }
}
