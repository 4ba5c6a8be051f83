import GestureKit
import Testing
@testable import X11Bridge

/// Devices as the real X drivers present them, described from the drivers' sources: the type
/// each driver gives a device (XListInputDevices' type atom), the axes it declares in order, and
/// where it posts pressure. xf86-input-libinput creates a tool's device at the tool's first
/// proximity, gives the eraser its own, labels axes in order from valuator 2 but posts pressure
/// on 2, tilt on 3 and 4; a mouse or lens tool declares "Abs Pressure" for compatibility and
/// never moves it; touchscreens report no pressure. xf86-input-wacom names its devices
/// "... Pen stylus", "... Pen eraser", "... Pen cursor", "... Pad pad".
@Suite("Devices as real drivers present them")
struct DriverConventionsTests {
    static func axis(_ number: Int, _ label: String, min: Double = 0, _ max: Double) -> ValuatorAxis {
        ValuatorAxis(number: number, label: label, min: min, max: max, isAbsolute: true)
    }

    static let position = [axis(0, "Abs X", 65535), axis(1, "Abs Y", 65535)]

    static func device(_ name: String, _ type: DeviceType?, _ driver: InputDriver, _ valuators: [ValuatorAxis],
                       touch: TouchCapability? = nil) -> X11Device {
        var device = X11Device(id: 12, name: name, use: .slavePointer, valuators: valuators, touch: touch,
                               type: type, driver: driver)
        device.kind = DeviceClassifier.kind(of: device)
        return device
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var device: X11Device
        var kind: DeviceKind?
        /// The valuator read as pressure, nil for none.
        var pressure: Int?
        var testDescription: String { device.name }
    }

    static let cases: [Case] = [
        // xf86-input-libinput: pressure on 2 (0..2047), tilt on 3 and 4.
        Case(device: device("Wacom Intuos S Pen (0x802)", .stylus, .libinput,
                            position + [axis(2, "Abs Pressure", 2047), axis(3, "Abs Tilt X", min: -64, 64),
                                        axis(4, "Abs Tilt Y", min: -64, 64)]), kind: .pen, pressure: 2),
        // A libinput pen without pressure: its tilt labels start at 2, and nothing there is pressure.
        Case(device: device("XP-Pen Deco Pen (0x0)", .stylus, .libinput,
                            position + [axis(2, "Abs Tilt X", min: -64, 64), axis(3, "Abs Tilt Y", min: -64, 64)]),
             kind: .pen, pressure: nil),
        // A label "Abs Pressure" off libinput's fixed valuator 2 is not believed.
        Case(device: device("Odd Pen (0x1)", .stylus, .libinput,
                            position + [axis(2, "Abs Tilt X", min: -64, 64), axis(3, "Abs Pressure", 2047)]),
             kind: .pen, pressure: nil),
        // The eraser is a device of its own, with its own pressure.
        Case(device: device("Wacom Intuos S Eraser (0x80a)", .eraser, .libinput, position + [axis(2, "Abs Pressure", 2047)]),
             kind: .eraser, pressure: 2),
        // The mouse and lens tools declare pressure on 2 and never move it; rotation on 3.
        Case(device: device("Wacom Intuos Pro Mouse (0x94)", .cursor, .libinput,
                            position + [axis(2, "Abs Pressure", 65535), axis(3, "Abs Rotz", min: -65535, 65535)]),
             kind: .mouse, pressure: nil),
        // The pad: buttons, rings and strips; nothing to press with.
        Case(device: device("Wacom Intuos Pro M Pad", .pad, .libinput,
                            position + [axis(2, "Abs Pressure", 2047), axis(3, "Abs Wheel", 71)]), kind: nil, pressure: nil),
        // A touchscreen under libinput: touch positions, no pressure at all.
        Case(device: device("ELAN9008:00 04F3:29B6", .touchscreen, .libinput, position,
                            touch: TouchCapability(mode: .direct, maxTouches: 10)), kind: .touch, pressure: nil),
        // xf86-input-wacom: the same types; a stylus's pressure wherever it is labelled.
        Case(device: device("Wacom Intuos Pro M Pen stylus", .stylus, .wacom,
                            position + [axis(2, "Abs Pressure", 2047), axis(3, "Abs Tilt X", min: -64, 63),
                                        axis(4, "Abs Tilt Y", min: -64, 63), axis(5, "Abs Wheel", min: -900, 899)]),
             kind: .pen, pressure: 2),
        Case(device: device("Wacom Intuos Pro M Pen eraser", .eraser, .wacom, position + [axis(2, "Abs Pressure", 2047)]),
             kind: .eraser, pressure: 2),
        Case(device: device("Wacom Intuos Pro M Pen cursor", .cursor, .wacom,
                            position + [axis(2, "Abs Pressure", 2047), axis(3, "Abs Rotz", min: -900, 899)]),
             kind: .mouse, pressure: nil),
        Case(device: device("Wacom Intuos Pro M Pad pad", .pad, .wacom,
                            position + [axis(2, "Abs Pressure", 2047), axis(3, "Abs Wheel", 71)]), kind: nil, pressure: nil),
        // Its finger touch (a 2-in-1's screen): pressure declared, never sent (`wcmEmitTouch`).
        Case(device: device("Wacom HID 5256 Finger touch", .touchscreen, .wacom, position + [axis(2, "Abs Pressure", 2047)],
                            touch: TouchCapability(mode: .direct, maxTouches: 10)), kind: .touch, pressure: nil),
        // xf86-input-evdev: a touchscreen with the kernel's multitouch pressure.
        Case(device: device("ILITEK Multi-Touch", nil, .evdev,
                            [axis(0, "Abs MT Position X", 4095), axis(1, "Abs MT Position Y", 4095),
                             axis(2, "Abs MT Touch Major", 255), axis(3, "Abs MT Pressure", 255)],
                            touch: TouchCapability(mode: .direct, maxTouches: 10)), kind: .touch, pressure: 3),
    ]

    @Test("the driver's type decides the kind; pressure is read where the driver posts it", arguments: cases)
    func classified(_ example: Case) {
        #expect(example.device.kind == example.kind)
        #expect(example.device.pressureAxis?.number == example.pressure)
        #expect(example.device.isContactSource == (example.kind != nil))
        if example.pressure == nil, example.kind != nil {
            #expect(example.device.inputDevice?.pressure == nil, "gets the gestures that need no pressure")
        }
    }

    @Test("type atom names map to types, whatever their case; unknown ones are kept")
    func typeNames() {
        #expect(DeviceType(atomName: "STYLUS") == .stylus && DeviceType(atomName: "Eraser") == .eraser)
        #expect(DeviceType(atomName: "TOUCH") == .touchscreen && DeviceType(atomName: "PAD") == .pad)
        #expect(DeviceType(atomName: "BARCODE") == .other("BARCODE"))
    }

    @Test("whether a pen is pressing now: its pressure reads above its minimum; of a touchscreen, unknown")
    func pressureMoved() throws {
        var pen = Self.cases[0].device
        #expect(pen.pressureHasMoved == false)
        pen.valuators[2].value = 300
        #expect(pen.pressureHasMoved == true)
        #expect(Self.cases[4].device.pressureHasMoved == nil, "a mouse tool has no pressure to move")
        let touchscreen = try #require(Self.cases.map(\.device).first { $0.touch != nil && $0.pressureAxis != nil }, "a touchscreen with pressure among the cases")
        #expect(touchscreen.pressureHasMoved == nil, "a touch's end keeps its last pressure: nothing to tell")
    }
}
