import Testing
@testable import GestureKit

@Suite("Deep press")
struct DeepPressRecognizerTests {
    /// Threshold 0.75, release 0.6, slop 12 px: a right click.
    let script = GestureScript(Binding(
        name: "right-click", recognizer: .deepPress(.init(threshold: 0.75, release: 0.6, slop: 12)),
        onStart: [.click(button: 3)]))

    var pen: ScriptedDevice { script.pen }
    var states: [GestureState] { script.gestureStates("right-click") }

    /// Found in review of the seeds: `release` left out at threshold − 0.15 was 0 for a
    /// threshold of 0.15 or less, and a force never falls below 0: the press ended only at the
    /// lift, its end action (a button's release) waiting for it however lightly the pen rested.
    @Test("a light deep press's release left out is half its threshold at least, so easing off ends it", arguments: [0.1, 0.15, 0.2])
    func lightThresholdRelease(threshold: Double) {
        let configuration = DeepPressRecognizer.Configuration(threshold: threshold)
        #expect(configuration.release == max(threshold - 0.15, threshold / 2))
        var recognizer = DeepPressRecognizer(configuration)
        let origin = Point(x: 0, y: 0)
        #expect(recognizer.handle(.down(ContactSample(time: 0, position: origin, force: threshold + 0.05))).reports.map(\.state) == [.began])
        #expect(recognizer.handle(.move(ContactSample(time: 0.1, position: origin, force: 0.01))).reports.map(\.state) == [.ended])
        #expect(DeepPressRecognizer.Configuration(threshold: 0.7).release == 0.55, "as ever at the default's levels")
    }

    @Test("pressing exactly to the threshold begins the deep press; a hair less does not")
    func thresholdIsInclusive() {
        pen.down(at: (100, 100), force: 0.1)
        pen.aFrameLater().press(pressure: 749)
        #expect(states == [])
        pen.aFrameLater().press(pressure: 750)
        expectSequence(states, [.began])
        expectSequence(script.actions, [.click(button: 3, at: (100, 100))])
    }

    @Test("a hand trembling between the release level and the threshold neither ends nor restarts it")
    func hysteresis() {
        pen.down(at: (100, 100), force: 0.1)
        pen.press(frameByFrame: 0.8)
        pen.press(frameByFrame: 0.65, 0.74, 0.61, 0.6, 0.76, 0.7)
        expectSequence(states, [.began, .changed, .changed, .changed, .changed, .changed, .changed])
        #expect(script.actions.count == 1, "one click, however much the hand trembles")
        pen.press(frameByFrame: 0.59)
        #expect(states.last == .ended, "falling below the release level ends it")
    }

    @Test("lifting the pen ends the deep press where it lifted")
    func endsOnLift() {
        pen.down(at: (100, 100), force: 0.1)
        pen.press(to: 0.9)
        script.clock.advance(by: 0.1)
        pen.lift()
        expectSequence(states, [.began, .ended])
        #expect(script.reports(of: "right-click").last?.time == script.clock.now)
    }

    @Test("a light tap fails the deep press and clicks nothing")
    func failsOnLightTap() {
        pen.down(at: (100, 100), force: 0.1)
        script.clock.advance(by: 0.05)
        pen.press(to: 0.5)
        script.clock.advance(by: 0.05)
        pen.lift()
        expectSequence(states, [.failed])
        expectSequence(script.actions, [])
    }

    @Test("sliding past the slop before pressing cancels it: that was a drag, and pressing afterwards does nothing")
    func cancelledByDrag() {
        pen.down(at: (100, 100), force: 0.1)
        pen.aFrameLater().move(to: (113, 100))
        expectSequence(states, [.cancelled])
        pen.press(frameByFrame: 0.9)
        pen.aFrameLater().lift()
        expectSequence(states, [.cancelled])
        expectSequence(script.actions, [])
        expectSequence(script.decisions, [.released(.failed)])
    }

    @Test("moving exactly the slop is still a press, and the click lands where the deep press began")
    func withinSlop() {
        pen.down(at: (100, 100), force: 0.1)
        pen.aFrameLater().move(to: (112, 100))
        pen.press(frameByFrame: 0.8)
        expectSequence(states, [.began])
        expectSequence(script.actions, [.click(button: 3, at: (112, 100))])
    }

    @Test("once the deep press began, dragging far is fine")
    func movingAfterBeginIsFine() {
        pen.down(at: (100, 100), force: 0.1)
        pen.press(frameByFrame: 0.8)
        for x in stride(from: 120.0, through: 300, by: 20) {
            pen.aFrameLater().move(to: (x, 100))
        }
        pen.aFrameLater().lift()
        expectSequence(states, [.began, .ended])
        #expect(script.reports(of: "right-click").last?.position == Point(x: 300, y: 100))
    }

    @Test("one deep press per contact: pressing hard again after the release starts nothing")
    func onePerContact() {
        pen.down(at: (100, 100), force: 0.1)
        pen.press(frameByFrame: 0.8, 0.3, 0.9)
        pen.aFrameLater().lift()
        expectSequence(states, [.began, .ended])
        #expect(script.actions.count == 1)
    }

    @Test("the recognizer itself allows one deep press per contact, whoever keeps feeding it")
    func onePerContactInTheRecognizer() {
        let pen = RecognizerScript(.deepPress(.init(threshold: 0.75, release: 0.6)))
        pen.down(at: (100, 100), force: 0.1)
        pen.press(frameByFrame: 0.8, 0.3, 0.9, 0.2)
        pen.lift()
        expectSequence(pen.states, [.began, .ended])
        #expect(pen.bugs == [])
    }

    @Test("a pen that goes down already pressing hard begins at once")
    func deepAtTouchDown() {
        pen.down(at: (100, 100), force: 0.9)
        expectSequence(states, [.began])
        expectSequence(script.decisions, [.claimed(by: "right-click")])
    }
}
