import Testing
@testable import GestureKit

@Suite("Which devices a binding listens to")
struct EngineDeviceFilterTests {
    static func rightClick(devices: [DeviceSelector] = [], pressure: PressureRequirement = .any) -> Binding {
        Binding(name: "right-click", recognizer: .deepPress(.init(threshold: 0.75)), devices: devices,
                pressure: pressure, onStart: [.click(button: 3)])
    }

    /// Presses hard with each device that has pressure; the names of the devices a gesture saw.
    func deepPressUsers(_ script: GestureScript) -> [String] {
        var seen: [String] = []
        for device in [script.pen, script.touchscreen] {
            script.forgetOutputs()
            device.down(at: (100, 100), force: 0.9)
            device.lift()
            if !script.gestureEvents.isEmpty { seen.append(device.device.name) }
        }
        return seen
    }

    @Test("a binding for pens ignores the touchscreen, whose touches go straight to the application")
    func byKind() {
        let script = GestureScript(Self.rightClick(devices: [.kind(.pen)]))
        #expect(deepPressUsers(script) == ["Script Pen stylus"])
        script.forgetOutputs()
        script.touchscreen.down(at: (100, 100), force: 0.9)
        expectSequence(script.decisions, [.released(.unbound)])
    }

    @Test("a binding naming a device listens to that device alone")
    func byName() {
        let script = GestureScript(Self.rightClick(devices: [.named("Script Touchscreen")]))
        #expect(deepPressUsers(script) == ["Script Touchscreen"])
    }

    @Test("several selectors: any of them will do")
    func severalSelectors() {
        let script = GestureScript(Self.rightClick(devices: [.kind(.eraser), .named("Script Pen stylus"), .kind(.touch)]))
        #expect(deepPressUsers(script) == ["Script Pen stylus", "Script Touchscreen"])
    }

    @Test("pressure: absent keeps a long press off the pen and on the mouse")
    func pressureAbsent() {
        let script = GestureScript(Binding(name: "menu", recognizer: .longPress(.init(duration: 0.6)), pressure: .absent))
        script.pen.down(at: (100, 100), force: 0.1)
        script.mouse.down(at: (300, 300))
        script.clock.advance(by: 1)
        expectSequence(script.decisions, [.released(.unbound), .claimed(by: "menu")])
        #expect(script.gestureEvents.map(\.device) == [GestureScript.mouseDevice.id])
    }

    @Test("pressure: required keeps a knob off the mouse")
    func pressureRequired() {
        let knob = Binding(name: "volume", recognizer: .knob(KnobSettings(
            centerX: ScreenCoordinate(100), centerY: ScreenCoordinate(150), innerRadius: 10, outerRadius: 100)),
            pressure: .required)
        let script = GestureScript(knob)
        script.mouse.down(at: (100, 100))
        script.pen.down(at: (100, 100), force: 0.1)
        expectSequence(script.decisions, [.released(.unbound), .claimed(by: "volume")])
    }

    @Test("a device plugged in later is filtered like the others")
    func hotPluggedDevice() {
        let script = GestureScript(Self.rightClick(devices: [.kind(.eraser)]))
        let eraser = script.plug(InputDevice(id: 20, name: "Script Pen eraser", kind: .eraser,
                                             pressure: PressureRange(min: 0, max: 4095)))
        eraser.down(at: (100, 100), force: 0.9)
        script.pen.down(at: (200, 100), force: 0.9)
        expectSequence(script.actions, [.click(button: 3, at: (100, 100))])
    }
}
