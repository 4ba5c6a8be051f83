/// Evdev type and code numbers (linux/input-event-codes.h) the emulated devices use.
public enum EvdevCode {
    public static let synchronization: UInt16 = 0  // EV_SYN
    public static let key: UInt16 = 1  // EV_KEY
    public static let absolute: UInt16 = 3  // EV_ABS
    public static let miscellaneous: UInt16 = 4  // EV_MSC

    public static let toolPen: UInt16 = 0x140  // BTN_TOOL_PEN
    public static let toolRubber: UInt16 = 0x141  // BTN_TOOL_RUBBER
    public static let toolFinger: UInt16 = 0x145  // BTN_TOOL_FINGER
    public static let toolDoubleTap: UInt16 = 0x14d  // BTN_TOOL_DOUBLETAP
    public static let touch: UInt16 = 0x14a  // BTN_TOUCH
    public static let stylus: UInt16 = 0x14b  // BTN_STYLUS
    public static let stylus2: UInt16 = 0x14c  // BTN_STYLUS2

    public static let x: UInt16 = 0x00  // ABS_X
    public static let y: UInt16 = 0x01  // ABS_Y
    public static let pressure: UInt16 = 0x18  // ABS_PRESSURE
    public static let distance: UInt16 = 0x19  // ABS_DISTANCE
    public static let tiltX: UInt16 = 0x1a  // ABS_TILT_X
    public static let tiltY: UInt16 = 0x1b  // ABS_TILT_Y
    public static let slot: UInt16 = 0x2f  // ABS_MT_SLOT
    public static let touchMajor: UInt16 = 0x30  // ABS_MT_TOUCH_MAJOR
    public static let positionX: UInt16 = 0x35  // ABS_MT_POSITION_X
    public static let positionY: UInt16 = 0x36  // ABS_MT_POSITION_Y
    public static let trackingID: UInt16 = 0x39  // ABS_MT_TRACKING_ID
    public static let touchPressure: UInt16 = 0x3a  // ABS_MT_PRESSURE

    public static let serial: UInt16 = 0x00  // MSC_SERIAL

    public static let propertyPointer: UInt16 = 0  // INPUT_PROP_POINTER
    public static let propertyDirect: UInt16 = 1  // INPUT_PROP_DIRECT
}

/// One absolute axis of an emulated device, as EVIOCGABS reports it.
public struct EvdevAxis: Sendable, Hashable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32 = 0
    public var flat: Int32 = 0
    /// Units per millimetre (per radian for tilt... in degrees here, as tablets report it).
    public var resolution: Int32 = 0

    public init(_ minimum: Int32, _ maximum: Int32, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.resolution = resolution
    }

    /// The value for `normalized` (0...1 of the range, clamped), rounded to a unit.
    public func value(normalized: Double) -> Int32 {
        minimum + Int32((min(max(normalized, 0), 1) * Double(maximum - minimum)).rounded())
    }
}

/// What an emulated evdev device says it is: the answers to the evdev ioctls, modelled on real
/// hardware, and what udev would say about it (for libinput).
public struct EvdevDeviceDescription: Sendable {
    /// What udev classifies it as (`ID_INPUT_TABLET`, `ID_INPUT_TOUCHSCREEN`).
    public enum Role: String, Sendable {
        case tablet, touchscreen
    }

    public var name: String
    public var phys: String
    public var bustype: UInt16 = 3  // BUS_USB
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16 = 0x0111
    public var role: Role
    public var properties: [UInt16] = []
    public var keys: [UInt16] = []
    public var miscellaneous: [UInt16] = []
    public var axes: [UInt16: EvdevAxis] = [:]

    public var pressureAxis: EvdevAxis? { axes[EvdevCode.pressure] ?? axes[EvdevCode.touchPressure] }
    public var hasTilt: Bool { axes[EvdevCode.tiltX] != nil }
    public var maximumSlots: Int { axes[EvdevCode.slot].map { Int($0.maximum) + 1 } ?? 0 }

    /// The description file gesture-evdev-fuse reads.
    var fileText: String {
        var lines = ["name \(name)", "phys \(phys)", "id \(bustype) \(vendor) \(product) \(version)"]
        lines += properties.map { "prop \($0)" }
        lines += keys.map { "key \($0)" }
        lines += miscellaneous.map { "msc \($0)" }
        for code in axes.keys.sorted() {
            guard let axis = axes[code] else { continue }
            lines.append("abs \(code) \(axis.minimum) \(axis.maximum) \(axis.fuzz) \(axis.flat) \(axis.resolution)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A capability bitmap as sysfs and udev print it: hexadecimal words, most significant first.
    static func bitmap(_ bits: [Int]) -> String {
        guard let highest = bits.max() else { return "0" }
        var words = [UInt64](repeating: 0, count: highest / 64 + 1)
        for bit in bits { words[bit / 64] |= 1 << UInt64(bit % 64) }
        var text = words.reversed().map { String($0, radix: 16) }
        while text.count > 1, text.first == "0" { text.removeFirst() }
        return text.joined(separator: " ")
    }

    var eventTypes: [Int] {
        var types = [Int(EvdevCode.synchronization)]
        if !keys.isEmpty { types.append(Int(EvdevCode.key)) }
        if !axes.isEmpty { types.append(Int(EvdevCode.absolute)) }
        if !miscellaneous.isEmpty { types.append(Int(EvdevCode.miscellaneous)) }
        return types
    }

    // MARK: - Devices modelled on real hardware

    /// Pens and screens map their full range onto a 1280x800 screen: 20 units a pixel.
    public static let unitsPerPixel: Int32 = 20

    /// X and Y (`x`, `y`: ABS_X, ABS_Y or the multitouch positions) spanning the screen at
    /// `unitsPerPixel`, with `resolution` units a millimetre.
    private static func screenAxes(_ x: UInt16, _ y: UInt16, screenWidth: Int, screenHeight: Int,
                                   resolution: Int32) -> [UInt16: EvdevAxis] {
        [
            x: EvdevAxis(0, Int32(screenWidth) * unitsPerPixel - 1, resolution: resolution),
            y: EvdevAxis(0, Int32(screenHeight) * unitsPerPixel - 1, resolution: resolution),
        ]
    }

    /// A pen tablet: the pen's tip and two barrel buttons, X and Y over the screen at
    /// `resolution` units a millimetre, pressure 0...`pressureMaximum`, and what the model adds
    /// (`otherTools`, `otherAxes`).
    private static func penTablet(
        name: String, phys: String, vendor: UInt16, product: UInt16, properties: [UInt16],
        otherTools: [UInt16] = [], miscellaneous: [UInt16] = [],
        screenWidth: Int, screenHeight: Int, resolution: Int32, pressureMaximum: Int32,
        otherAxes: [UInt16: EvdevAxis] = [:]
    ) -> EvdevDeviceDescription {
        let axes = screenAxes(EvdevCode.x, EvdevCode.y, screenWidth: screenWidth, screenHeight: screenHeight,
                              resolution: resolution)
            .merging([EvdevCode.pressure: EvdevAxis(0, pressureMaximum)]) { $1 }
            .merging(otherAxes) { $1 }
        return EvdevDeviceDescription(
            name: name, phys: phys, vendor: vendor, product: product, role: .tablet, properties: properties,
            keys: [EvdevCode.toolPen] + otherTools + [EvdevCode.touch, EvdevCode.stylus, EvdevCode.stylus2],
            miscellaneous: miscellaneous, axes: axes)
    }

    /// An ISDv4-like Wacom pen (a Tablet PC's screen digitizer, vendor 0x056a): an eraser too,
    /// serial numbers, pressure 0...2047.
    public static func wacomISDv4Pen(screenWidth: Int, screenHeight: Int) -> EvdevDeviceDescription {
        penTablet(
            name: "Wacom ISDv4 5000 Pen", phys: "gesturebridge/wacom-pen", vendor: 0x056a, product: 0x5000,
            properties: [EvdevCode.propertyDirect], otherTools: [EvdevCode.toolRubber], miscellaneous: [EvdevCode.serial],
            screenWidth: screenWidth, screenHeight: screenHeight, resolution: 100, pressureMaximum: 2047)
    }

    /// A pen tablet of no particular brand for xf86-input-evdev: pressure 0...1023.
    public static func genericTabletPen(screenWidth: Int, screenHeight: Int) -> EvdevDeviceDescription {
        penTablet(
            name: "Generic Pen Tablet", phys: "gesturebridge/evdev-pen", vendor: 0x1b96, product: 0x0011,
            properties: [EvdevCode.propertyDirect],
            screenWidth: screenWidth, screenHeight: screenHeight, resolution: 100, pressureMaximum: 1023)
    }

    /// A Huion-like pen tablet (vendor 0x256c): pressure 0...8191, tilt ±60°.
    public static func huionPen(screenWidth: Int, screenHeight: Int) -> EvdevDeviceDescription {
        penTablet(
            name: "HUION Huion Tablet_H640P Pen", phys: "gesturebridge/huion-pen", vendor: 0x256c, product: 0x006d,
            properties: [EvdevCode.propertyPointer],
            screenWidth: screenWidth, screenHeight: screenHeight, resolution: 200, pressureMaximum: 8191,
            otherAxes: [
                EvdevCode.tiltX: EvdevAxis(-60, 60, resolution: 57),
                EvdevCode.tiltY: EvdevAxis(-60, 60, resolution: 57),
            ])
    }

    /// A ten-finger multitouch screen, with ABS_MT_PRESSURE 0...255 or without it.
    public static func multitouchScreen(screenWidth: Int, screenHeight: Int, pressure: Bool) -> EvdevDeviceDescription {
        var axes = screenAxes(EvdevCode.x, EvdevCode.y, screenWidth: screenWidth, screenHeight: screenHeight, resolution: 40)
            .merging(screenAxes(EvdevCode.positionX, EvdevCode.positionY, screenWidth: screenWidth,
                                screenHeight: screenHeight, resolution: 40)) { $1 }
        axes[EvdevCode.slot] = EvdevAxis(0, 9)
        axes[EvdevCode.trackingID] = EvdevAxis(0, 65535)
        if pressure {
            axes[EvdevCode.pressure] = EvdevAxis(0, 255)
            axes[EvdevCode.touchPressure] = EvdevAxis(0, 255)
        }
        return EvdevDeviceDescription(
            name: pressure ? "ELAN Touchscreen Pressure" : "ELAN Touchscreen", phys: "gesturebridge/touchscreen",
            vendor: 0x04f3, product: pressure ? 0x2a1c : 0x2a1b, role: .touchscreen,
            properties: [EvdevCode.propertyDirect], keys: [EvdevCode.touch], axes: axes)
    }
}
