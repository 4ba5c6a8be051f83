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

    /// What `calibrate --write` leaves for a heavy hand: the pen's own deep press, higher than the
    /// default's, listed first, and the default for pens and touchscreens after it.
    static let calibrated = [
        Binding(name: "right-click-pen", recognizer: .deepPress(.init(threshold: 0.85)), devices: [.named("Script Pen stylus")],
                onStart: [.click(button: 3)]),
        Binding(name: "right-click", recognizer: .deepPress(.init(threshold: 0.7)), devices: [.kind(.pen), .kind(.touch)],
                onStart: [.click(button: 3)]),
    ]

    /// The engine's decisions for one press of `device` from 0.1 up to `force`, lifted.
    func decisions(_ script: GestureScript, _ device: ScriptedDevice, pressingTo force: Double) -> [ScriptDecision] {
        script.forgetOutputs()
        device.down(at: (100, 100), force: 0.1)
        device.press(to: force)
        device.lift()
        return script.decisions
    }

    @Test("a binding naming a device takes it from the same gesture's binding for its kind, whichever threshold is lower and wherever it is listed",
          arguments: [false, true])
    func namedTakesOver(reversed: Bool) {
        let script = GestureScript(reversed ? Self.calibrated.reversed() : Self.calibrated)
        // A firm press below the pen's own threshold is no deep press, though the default's is lower.
        expectSequence(decisions(script, script.pen, pressingTo: 0.8), [.released(.ended)])
        expectSequence(script.actions, [])
        expectSequence(decisions(script, script.pen, pressingTo: 0.9), [.claimed(by: "right-click-pen")])
        // The touchscreen keeps the default.
        expectSequence(decisions(script, script.touchscreen, pressingTo: 0.8), [.claimed(by: "right-click")])
    }

    @Test("a binding naming a device leaves the bindings of other gestures for its kind alone")
    func namedKeepsOtherGestures() {
        let script = GestureScript(
            Binding(name: "pen-squeeze", recognizer: .squeeze(.init(threshold: 0.85)), devices: [.named("Script Pen stylus")]),
            Binding(name: "right-click", recognizer: .deepPress(.init(threshold: 0.7)), devices: [.kind(.pen)], onStart: [.click(button: 3)]))
        expectSequence(decisions(script, script.pen, pressingTo: 0.8), [.claimed(by: "right-click")])
    }

    @Test("a knob naming a device leaves a knob for its kind elsewhere on the screen alone, and watching gestures stay")
    func namedKnobKeepsOthers() {
        func knob(_ name: String, at x: Double, devices: [DeviceSelector]) -> Binding {
            Binding(name: name, recognizer: .knob(KnobSettings(centerX: ScreenCoordinate(x), centerY: ScreenCoordinate(150),
                                                               innerRadius: 10, outerRadius: 100)), devices: devices)
        }
        let configuration = BindingSet(bindings: [
            knob("volume-pen", at: 100, devices: [.named("Script Pen stylus")]),
            knob("scroll", at: 600, devices: [.kind(.pen)]),
            Binding(name: "pen-force", recognizer: .force(.init()), devices: [.named("Script Pen stylus")]),
            Binding(name: "force", recognizer: .force(.init()), devices: [.kind(.pen)]),
        ])
        #expect(configuration.bindings(for: GestureScript.penDevice, in: nil).map(\.name) == ["volume-pen", "scroll", "pen-force", "force"])
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
