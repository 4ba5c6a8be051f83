@testable import GestureKit

/// A person's session with GestureBridge, written as a script: a pen, a touchscreen and a
/// mouse plugged in, a virtual clock, the engine with the bindings under test, and
/// everything the engine said, in order.
///
///     let script = GestureScript(Binding(name: "right-click", recognizer: .deepPress(.init()),
///                                        onStart: [.click(button: 3)]))
///     script.pen.down(at: (100, 100), force: 0.1)
///     script.pen.press(frameByFrame: 0.8)
///     script.pen.aFrameLater().lift()
///     expectSequence(script.actions, [.click(button: 3, at: (100, 100))])
final class GestureScript {
    /// A pen whose pressure axis reports 0...1000.
    static let penDevice = InputDevice(id: 11, name: "Script Pen stylus", kind: .pen,
                                       pressure: PressureRange(min: 0, max: 1000))
    /// A touchscreen whose pressure axis reports 0...2047.
    static let touchscreenDevice = InputDevice(id: 12, name: "Script Touchscreen", kind: .touch,
                                               pressure: PressureRange(min: 0, max: 2047))
    /// A mouse: no pressure axis at all.
    static let mouseDevice = InputDevice(id: 13, name: "Script Mouse", kind: .mouse, pressure: nil)

    let clock = VirtualClock()
    private(set) var engine: GestureEngine
    /// Everything the engine said since the script began (or since `forgetOutputs()`).
    private(set) var outputs: [EngineOutput] = []
    /// Where each finger is and how hard it presses, in raw device units.
    private var poses: [ContactKey: (position: Point, pressure: Double?)] = [:]

    init(_ bindings: [Binding], decisionTimeout: Double = BindingSet.defaultDecisionTimeout,
         screen: ScreenSize = .fallback, monitors: MonitorLayout = .none) {
        engine = GestureEngine(configuration: BindingSet(bindings: bindings, decisionTimeout: decisionTimeout),
                               devices: [Self.penDevice, Self.touchscreenDevice, Self.mouseDevice], screen: screen,
                               monitors: monitors)
        clock.onAdvance = { [weak self] time in self?.fireTimers(until: time) }
    }

    /// A script running a whole config (the built-in default, say), on a desktop at `scale`.
    init(configuration: BindingSet, screen: ScreenSize = .fallback, scale: DesktopScale = .unscaled) {
        engine = GestureEngine(configuration: configuration,
                               devices: [Self.penDevice, Self.touchscreenDevice, Self.mouseDevice], screen: screen,
                               scale: scale)
        clock.onAdvance = { [weak self] time in self?.fireTimers(until: time) }
    }

    convenience init(_ bindings: Binding..., decisionTimeout: Double = BindingSet.defaultDecisionTimeout) {
        self.init(bindings, decisionTimeout: decisionTimeout)
    }

    // MARK: Devices

    var pen: ScriptedDevice { ScriptedDevice(script: self, device: Self.penDevice) }
    var touchscreen: ScriptedDevice { ScriptedDevice(script: self, device: Self.touchscreenDevice) }
    var mouse: ScriptedDevice { ScriptedDevice(script: self, device: Self.mouseDevice) }

    /// Plugs in another device, as a hot-plug would.
    func plug(_ device: InputDevice) -> ScriptedDevice {
        engine.addDevice(device)
        return ScriptedDevice(script: self, device: device)
    }

    /// Unplugs a device now, fingers and all.
    func unplug(_ device: InputDevice) {
        engine.removeDevice(device.id, at: clock.now, into: &outputs)
        poses = poses.filter { $0.key.device != device.id }
    }

    /// How long a lifted contact waits to teach its learner, as the live bridge has it.
    func setLessonGrace(_ seconds: Double) {
        engine.lessonGrace = seconds
    }

    /// The desktop's scale changed (`Xft.dpi` set anew): contacts from now on follow it.
    func setScale(_ scale: DesktopScale) {
        engine.scale = scale
    }

    /// A config reload: contacts already down finish with the bindings they began with.
    func replaceBindings(_ bindings: [Binding], decisionTimeout: Double = BindingSet.defaultDecisionTimeout,
                         holdLimit: Double = BindingSet.defaultHoldLimit) {
        engine.replaceConfiguration(BindingSet(bindings: bindings, decisionTimeout: decisionTimeout, holdLimit: holdLimit))
    }

    // MARK: What the devices send

    func pose(of key: ContactKey) -> (position: Point, pressure: Double?)? { poses[key] }

    func send(_ phase: ContactPhase, _ key: ContactKey, at position: Point, pressure: Double?,
              handedOverAtBegin reason: ReleaseReason? = nil) {
        switch phase {
        case .begin, .move: poses[key] = (position, pressure)
        case .end, .cancel: poses[key] = nil
        case .hover: break
        }
        let event = ContactEvent(time: clock.now, device: key.device, contact: key.contact, phase: phase,
                                 position: position, pressure: pressure)
        if let reason {
            engine.handle(event, handedOverAtBegin: reason, into: &outputs)
        } else {
            engine.handle(event, into: &outputs)
        }
    }

    /// Tells the engine that another program's grab took the contact's press or touch before
    /// anything of the bridge's acted on it (`GestureEngine.takeBack`).
    func takenByAnotherGrab(_ key: ContactKey) {
        engine.takeBack(key, reason: .anotherButton, at: clock.now, into: &outputs)
    }

    private func fireTimers(until time: Double) {
        engine.advance(to: time, into: &outputs)
    }

    /// Starts the record afresh, for scripts that check one stretch at a time.
    func forgetOutputs() {
        outputs.removeAll()
    }

    // MARK: What happened

    var gestureEvents: [GestureEvent] {
        outputs.compactMap { if case .gesture(let event) = $0 { return event } else { return nil } }
    }

    func reports(of gesture: String) -> [GestureReport] {
        gestureEvents.filter { $0.gesture == gesture }.map(\.report)
    }

    /// The states a gesture went through, across every contact.
    func gestureStates(_ gesture: String) -> [GestureState] {
        reports(of: gesture).map(\.state)
    }

    func crossings(of gesture: String) -> [ThresholdCrossing] {
        reports(of: gesture).compactMap(\.crossing)
    }

    var actionEvents: [ActionEvent] {
        outputs.compactMap { if case .action(let event) = $0 { return event } else { return nil } }
    }

    /// Every action fired, with where it happens.
    var actions: [PlacedAction] { actionEvents.map(PlacedAction.init) }

    /// The actions one gesture fired, without positions (knob steps, threshold crossings).
    func actions(of gesture: String) -> [Action] {
        actionEvents.filter { $0.gesture == gesture }.map(\.action)
    }

    var engineDecisions: [ContactDecision] {
        outputs.compactMap { if case .decision(let decision) = $0 { return decision } else { return nil } }
    }

    var decisions: [ScriptDecision] { engineDecisions.map(ScriptDecision.init) }

    func decisions(for contact: ContactKey) -> [ScriptDecision] {
        engineDecisions.filter { $0.key == contact }.map(ScriptDecision.init)
    }

    var feedback: [ScriptFeedback] {
        outputs.compactMap { if case .feedback(let feedback) = $0 { return ScriptFeedback(feedback) } else { return nil } }
    }

    var bugs: [String] {
        outputs.compactMap { if case .bug(let text) = $0 { return text } else { return nil } }
    }
}
