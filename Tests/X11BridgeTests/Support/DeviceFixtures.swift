import GestureKit
import X11Bridge

/// Devices as the headless test Xorg reports them, for tests that need no server.
enum DeviceFixtures {
    static let screen = ScreenSize(width: 1280, height: 800)

    static func axis(_ number: Int, _ label: String, _ max: Double, absolute: Bool = true) -> ValuatorAxis {
        ValuatorAxis(number: number, label: label, min: 0, max: max, isAbsolute: absolute)
    }

    static let pen: X11Device = {
        var device = X11Device(id: 6, name: "test-pen", use: .slavePointer, attachment: 2, buttonCount: 7, valuators: [
            axis(0, "Abs X", 65535), axis(1, "Abs Y", 65535),
            axis(2, "Rel Horiz Scroll", -1, absolute: false), axis(3, "Rel Vert Scroll", -1, absolute: false),
            axis(4, "Abs Pressure", 1000),
        ])
        device.kind = DeviceClassifier.kind(of: device)
        return device
    }()

    static let touchscreen: X11Device = {
        var device = X11Device(id: 7, name: "test-touch", use: .slavePointer, attachment: 2, buttonCount: 7, valuators: [
            axis(0, "Abs MT Position X", 65535), axis(1, "Abs MT Position Y", 65535), axis(4, "Abs MT Pressure", 2047),
        ], touch: TouchCapability(mode: .direct, maxTouches: 10))
        device.kind = DeviceClassifier.kind(of: device)
        return device
    }()

    static let mouse: X11Device = {
        var device = X11Device(id: 9, name: "Logitech USB Optical Mouse", use: .slavePointer, attachment: 2, buttonCount: 12,
                               valuators: [axis(0, "Rel X", -1, absolute: false), axis(1, "Rel Y", -1, absolute: false)])
        device.kind = DeviceClassifier.kind(of: device)
        return device
    }()

    /// Device units for a pixel position on the 1280x800 screen: px * 65536 / size.
    static func units(_ x: Double, _ y: Double) -> [Int: Double] {
        [0: x * 65536 / screen.width, 1: y * 65536 / screen.height]
    }
}
