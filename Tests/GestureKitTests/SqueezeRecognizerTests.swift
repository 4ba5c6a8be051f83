import Testing
@testable import GestureKit

@Suite("Squeeze")
struct SqueezeRecognizerTests {
    let script = GestureScript(Binding(name: "screenshot", recognizer: .squeeze(.init(threshold: 0.5, slop: 12)),
                                       onStart: [.key(KeyCombo(keys: ["Print"]))]))
    var pen: ScriptedDevice { script.pen }

    @Test("a squeeze is recognized once, the moment the force reaches its threshold")
    func recognizedOnce() {
        pen.down(at: (100, 100), force: 0.1)
        pen.aFrameLater().press(pressure: 499)
        #expect(script.gestureStates("screenshot") == [])
        pen.aFrameLater().press(pressure: 500)
        let recognizedAt = script.clock.now
        pen.press(frameByFrame: 0.9, 0.2, 0.8)
        pen.lift()
        expectSequence(script.gestureStates("screenshot"), [.recognized])
        #expect(script.reports(of: "screenshot").first?.time == recognizedAt)
        expectSequence(script.actions, [.key("Print", at: (100, 100))])
    }

    @Test("lifting before squeezing hard enough fails, and takes no screenshot")
    func failsOnLift() {
        pen.down(at: (100, 100), force: 0.1)
        pen.press(frameByFrame: 0.45)
        pen.aFrameLater().lift()
        expectSequence(script.gestureStates("screenshot"), [.failed])
        expectSequence(script.actions, [])
    }

    @Test("sliding past the slop first fails the squeeze")
    func failsOnDrag() {
        pen.down(at: (100, 100), force: 0.1)
        pen.aFrameLater().move(to: (100, 113))
        pen.press(frameByFrame: 0.9)
        expectSequence(script.gestureStates("screenshot"), [.failed])
        expectSequence(script.actions, [])
    }
}
