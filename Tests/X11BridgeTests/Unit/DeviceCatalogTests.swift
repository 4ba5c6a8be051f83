import GestureKit
import Testing
import X11Bridge

@Suite("Devices are told apart and followed through hot-plug")
struct DeviceCatalogTests {
    static func pointer(_ name: String, valuators: [ValuatorAxis], touch: TouchCapability? = nil,
                        use: DeviceUse = .slavePointer) -> X11Device {
        var device = X11Device(id: 10, name: name, use: use, valuators: valuators, touch: touch)
        device.kind = DeviceClassifier.kind(of: device)
        return device
    }

    static let absolute = [DeviceFixtures.axis(0, "Abs X", 65535), DeviceFixtures.axis(1, "Abs Y", 65535)]
    static let pressure = absolute + [DeviceFixtures.axis(2, "Abs Pressure", 2047)]
    static let relative = [DeviceFixtures.axis(0, "Rel X", -1, absolute: false), DeviceFixtures.axis(1, "Rel Y", -1, absolute: false)]

    @Test("kinds from the touch class, the axes and the driver's names", arguments: [
        ("test-pen", pressure, nil, DeviceKind?.some(.pen)),
        ("Wacom Intuos BT S Pen stylus", pressure, nil, .pen),
        ("Wacom Intuos BT S Pen eraser", pressure, nil, .eraser),
        ("Wacom Intuos BT S Pad pad", absolute, nil, nil),
        ("test-touch", absolute, TouchCapability(mode: .direct, maxTouches: 10), .touch),
        ("ELAN Touchscreen", absolute, nil, .touch),
        ("SynPS/2 Synaptics TouchPad", relative, nil, .touchpad),
        ("Apple Magic Trackpad", absolute, TouchCapability(mode: .dependent, maxTouches: 5), .touchpad),
        ("Logitech USB Optical Mouse", relative, nil, .mouse),
        ("QEMU USB Tablet", absolute, nil, .mouse),
        ("Virtual core XTEST pointer", relative, nil, nil),
    ] as [(String, [ValuatorAxis], TouchCapability?, DeviceKind?)])
    func kinds(name: String, valuators: [ValuatorAxis], touch: TouchCapability?, kind: DeviceKind?) {
        #expect(Self.pointer(name, valuators: valuators, touch: touch).kind == kind)
    }

    @Test("masters and keyboards make no contacts")
    func notContactSources() {
        #expect(Self.pointer("Virtual core pointer", valuators: Self.relative, use: .masterPointer).kind == nil)
        #expect(Self.pointer("AT keyboard", valuators: [], use: .slaveKeyboard).kind == nil)
    }

    @Test("the pressure axis is found by its label, wherever it is")
    func pressureByLabel() {
        let device = Self.pointer("pen", valuators: Self.pressure)
        #expect(device.pressureAxis?.number == 2)
        #expect(device.inputDevice?.pressure == PressureRange(min: 0, max: 2047))
        #expect(Self.pointer("mouse", valuators: Self.relative).inputDevice?.pressure == nil)
    }

    @Test("a device plugged in, a device disabled, a device whose range changed")
    func changes() {
        let before = DeviceCatalog(devices: [DeviceFixtures.pen, DeviceFixtures.touchscreen])
        var disabledPen = DeviceFixtures.pen
        disabledPen.isEnabled = false
        var widerTouch = DeviceFixtures.touchscreen
        widerTouch.valuators[2].max = 4095
        let after = DeviceCatalog(devices: [disabledPen, widerTouch, DeviceFixtures.mouse])
        let changes = after.changes(since: before)
        #expect(changes.added.map(\.id) == [9])
        #expect(changes.removed.map(\.id) == [6])
        #expect(changes.removed.first?.isEnabled == false)
        #expect(changes.updated.map(\.id) == [7])
    }

    @Test("a device disabled and enabled again before the catalog is read: removed, then added back")
    func replugBetweenReads() {
        let before = DeviceCatalog(devices: [DeviceFixtures.pen, DeviceFixtures.touchscreen])
        let after = DeviceCatalog(devices: [DeviceFixtures.pen, DeviceFixtures.touchscreen])
        #expect(after.changes(since: before).isEmpty)
        let changes = after.changes(since: before, leftMeanwhile: [DeviceFixtures.pen.id])
        #expect(changes.removed.map(\.id) == [DeviceFixtures.pen.id])
        #expect(changes.removed.first?.isEnabled == false)
        #expect(changes.added.map(\.id) == [DeviceFixtures.pen.id])
        #expect(changes.updated.isEmpty)
    }

    /// Found in review of a tablet PC: a cover re-attached, its keyboard back first with the id
    /// its touchpad had, was reported removed, while the touchpad was what went.
    @Test("an id the cover's touchpad had, now its keyboard's: the touchpad is reported gone, not the keyboard")
    func removedDeviceNamedByItsOldSelf() {
        let touchpad = DeviceFixtures.mouse
        var keyboard = X11Device(id: touchpad.id, name: "Surface Type Cover Keyboard", use: .slaveKeyboard, attachment: 3)
        keyboard.kind = DeviceClassifier.kind(of: keyboard)
        let before = DeviceCatalog(devices: [DeviceFixtures.pen, touchpad])
        let after = DeviceCatalog(devices: [DeviceFixtures.pen, keyboard])
        let changes = after.changes(since: before, leftMeanwhile: [touchpad.id])
        #expect(changes.removed.map(\.name) == [touchpad.name])
    }

    @Test("a device that merely moved has not changed")
    func movementIsNotAChange() {
        var moved = DeviceFixtures.pen
        moved.valuators[0].value = 1234
        let changes = DeviceCatalog(devices: [moved]).changes(since: DeviceCatalog(devices: [DeviceFixtures.pen]))
        #expect(changes.isEmpty)
    }

    @Test("a device mapped to another part of the screen is remapped, not changed: what was found of its input holds; with a new range too, it changed")
    func remapped() {
        var mapped = DeviceFixtures.touchscreen
        mapped.mappedArea = MappedArea(x: 0, y: 0, width: 0.5, height: 1)
        let before = DeviceCatalog(devices: [DeviceFixtures.pen, DeviceFixtures.touchscreen])
        let changes = DeviceCatalog(devices: [DeviceFixtures.pen, mapped]).changes(since: before)
        #expect(changes.remapped.map(\.id) == [DeviceFixtures.touchscreen.id])
        #expect(changes.updated.isEmpty && changes.added.isEmpty && changes.removed.isEmpty)
        #expect(mapped.inputDevice?.mappedArea == mapped.mappedArea)
        var wider = mapped
        wider.valuators[2].max = 4095
        let both = DeviceCatalog(devices: [DeviceFixtures.pen, wider]).changes(since: before)
        #expect(both.updated.map(\.id) == [DeviceFixtures.touchscreen.id] && both.remapped.isEmpty)
        #expect(DeviceCatalog(devices: [DeviceFixtures.pen, mapped]).changes(since: DeviceCatalog(devices: [DeviceFixtures.pen, mapped])).isEmpty)
    }
}
