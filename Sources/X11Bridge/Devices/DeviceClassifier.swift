import GestureKit

/// Tells pens, erasers, touchscreens, touchpads and mice apart from what XI2 reports.
///
/// XI2 has no device type, so the decision rests on the touch class, the axes, and the
/// names drivers give (wacom: "... Pen stylus", "... Pen eraser", "... Pad pad",
/// "... Finger touch"; libinput: "... Pen (0x...)", "... Eraser (0x...)").
public enum DeviceClassifier {
    public static func kind(of device: X11Device) -> DeviceKind? {
        guard device.use == .slavePointer || device.use == .floatingSlave else { return nil }
        let name = device.name.lowercased()
        // The XTEST devices are where synthetic input, the bridge's own clicks included, comes from.
        if name.contains("xtest") { return nil }
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
