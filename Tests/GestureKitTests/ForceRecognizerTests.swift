import Testing
@testable import GestureKit

@Suite("Force")
struct ForceRecognizerTests {
    @Test("force begins at touch-down and follows every change of pressure until the lift")
    func followsThePressure() {
        let script = GestureScript(Binding(name: "ink", recognizer: .force(.init())))
        script.pen.down(at: (100, 100), force: 0.2)
        script.pen.press(frameByFrame: 0.5)
        script.pen.aFrameLater().move(to: (110, 100))  // same pressure: nothing to say
        script.pen.press(frameByFrame: 0.9)
        script.pen.aFrameLater().lift()
        expectSequence(script.gestureStates("ink"), [.began, .changed, .changed, .ended])
        expectSequence(script.reports(of: "ink").compactMap(\.force), [0.2, 0.5, 0.9, 0])
    }

    @Test("a lower maximum lets a light hand reach the top: 0.4 with maximum 0.5 reads 0.8, and more reads 1")
    func maximumRescales() {
        let script = GestureScript(Binding(name: "ink", recognizer: .force(.init(maximum: 0.5))))
        script.pen.down(at: (100, 100), force: 0.4)
        script.pen.press(frameByFrame: 0.7)
        script.pen.aFrameLater().press(to: 0.9)  // still 1: nothing to report
        script.pen.press(frameByFrame: 0.25)
        expectSequence(script.reports(of: "ink").compactMap(\.force), [0.8, 1, 0.5])
    }

    @Test("a maximum outside 0...1 is clamped: never above the device's own top, never a division by zero")
    func maximumIsClamped() {
        #expect(ForceRecognizer.Configuration(maximum: 2).maximum == 1)
        #expect(ForceRecognizer.Configuration(maximum: 2).scaled(0.5) == 0.5)
        let zero = ForceRecognizer.Configuration(maximum: 0)
        #expect(zero.scaled(0.5) == 1)
        #expect(zero.scaled(0) == 0)
    }

    /// Found in review of staged pressure: the landing's force counted for nothing and a
    /// touch's lift (which reports its last force) stepped nothing down, so each quick press
    /// zoomed in one step more and each firm landing easing off zoomed out.
    /// A force binding that zooms in (ctrl+plus) and out (ctrl+minus) a step each `step`.
    static func zoom(step: Double) -> Binding {
        Binding(name: "zoom", recognizer: .force(.init()),
                steps: StepActions(step: step, increase: [.key(KeyCombo(keys: ["ctrl", "plus"]))],
                                   decrease: [.key(KeyCombo(keys: ["ctrl", "minus"]))]))
    }

    @Test("force step actions: one per step risen from nothing at the landing or fallen, the rest carried, and back to nothing at the lift")
    func forceSteps() {
        let script = GestureScript(Self.zoom(step: 0.125))
        func zoom() -> [String] { script.actions(of: "zoom").map(\.description) }
        script.pen.down(at: (100, 100), force: 0.25)
        #expect(zoom() == ["key ctrl+plus", "key ctrl+plus"], "landing at two steps")
        script.pen.aFrameLater().press(to: 0.3125)  // half a step: carried
        #expect(zoom().count == 2)
        script.pen.press(frameByFrame: 0.625, 0.375)
        expectSequence(zoom(), ["key ctrl+plus", "key ctrl+plus", "key ctrl+plus", "key ctrl+plus", "key ctrl+plus",
                                "key ctrl+minus", "key ctrl+minus"])
        script.pen.aFrameLater().lift()
        #expect(zoom().filter { $0 == "key ctrl+minus" }.count == 5, "as many down as up: \(zoom())")
    }

    @Test("a touch lifted at its last force and a firm landing easing off both end where they began")
    func forceStepsBalance() {
        let script = GestureScript(Self.zoom(step: 0.25))
        func count(_ key: String) -> Int { script.actions(of: "zoom").filter { $0.description == "key ctrl+" + key }.count }
        script.touchscreen.down(at: (100, 100), force: 0.05)
        script.touchscreen.press(frameByFrame: 0.2, 0.35, 0.45)
        script.touchscreen.aFrameLater().lift()
        #expect(count("plus") == 1 && count("minus") == 1)
        script.clock.advance(by: 1)
        script.touchscreen.down(at: (300, 100), force: 0.9)
        script.touchscreen.press(frameByFrame: 0.6, 0.3, 0.02)
        script.touchscreen.aFrameLater().lift()
        #expect(count("plus") == 4 && count("minus") == 4, "a stab in and eased out: \(script.actions(of: "zoom"))")
    }
}
