import Testing
@testable import GestureKit

@Suite("Pressure thresholds")
struct PressureThresholdsRecognizerTests {
    static func levels(_ thresholds: [Double], hysteresis: Double = 0) -> Binding {
        Binding(name: "levels", recognizer: .pressureThresholds(.init(thresholds: thresholds, hysteresis: hysteresis)),
                onCrossUp: [.key(KeyCombo(keys: ["XF86AudioRaiseVolume"]))],
                onCrossDown: [.key(KeyCombo(keys: ["XF86AudioLowerVolume"]))])
    }

    @Test("a jump from nothing to 0.9 passes three thresholds in one sample, in order; falling back passes them downwards")
    func severalPerSample() {
        let script = GestureScript(Self.levels([0.25, 0.5, 0.75]))
        script.pen.down(at: (100, 100), force: 0)
        expectSequence(script.gestureStates("levels"), [.began])
        script.clock.advance(by: 0.016)
        let jump = script.clock.now
        script.pen.press(to: 0.9)
        expectSequence(script.crossings(of: "levels"), [.up(0), .up(1), .up(2)])
        #expect(script.reports(of: "levels").dropFirst().allSatisfy { $0.time == jump }, "all three in the one sample")
        script.pen.press(frameByFrame: 0.1)
        expectSequence(script.crossings(of: "levels"), [.up(0), .up(1), .up(2), .down(2), .down(1), .down(0)])
    }

    @Test("every crossing fires its action: up actions on the way up, down actions on the way down")
    func crossingActions() {
        let script = GestureScript(Self.levels([0.25, 0.5, 0.75]))
        script.pen.down(at: (100, 100), force: 0)
        script.pen.press(to: 0.9)
        script.pen.press(to: 0.4)
        expectSequence(script.actions(of: "levels").map(\.description), [
            "key XF86AudioRaiseVolume", "key XF86AudioRaiseVolume", "key XF86AudioRaiseVolume",
            "key XF86AudioLowerVolume", "key XF86AudioLowerVolume",
        ])
    }

    @Test("lifting while pressing lets go of every threshold still reached, so paired up/down actions balance")
    func liftCrossesDown() {
        let script = GestureScript(Self.levels([0.25, 0.5, 0.75]))
        script.pen.down(at: (100, 100), force: 0)
        script.pen.press(to: 0.6)
        script.pen.lift()
        expectSequence(script.crossings(of: "levels"), [.up(0), .up(1), .down(1), .down(0)])
        #expect(script.gestureStates("levels").last == .ended)
        let actions = script.actions(of: "levels").map(\.description)
        #expect(actions.filter { $0.hasSuffix("RaiseVolume") }.count == actions.filter { $0.hasSuffix("LowerVolume") }.count)
    }

    /// Found in review: the lift crossed down only the thresholds its force of 0 fell below by
    /// the hysteresis, so a threshold of 0, or one no higher than the hysteresis, stayed reached
    /// after the lift, and an `up: {press: 1}` left the button down until the bridge stopped.
    @Test("lifting crosses down every threshold reached, even one the hysteresis would keep at force 0",
          arguments: [([0.0], 0.0), ([0.1], 0.2), ([0.1, 0.5], 0.3)])
    func liftCrossesDownWhateverTheHysteresis(thresholds: [Double], hysteresis: Double) {
        for ending in [false, true] {
            let script = GestureScript(Self.levels(thresholds, hysteresis: hysteresis))
            script.pen.down(at: (100, 100), force: 0)
            script.pen.press(to: 0.9)
            if ending { script.pen.cancel() } else { script.pen.lift() }
            let crossings = script.crossings(of: "levels")
            #expect(crossings.filter { $0.direction == .up }.count == thresholds.count, "\(crossings)")
            #expect(crossings.filter { $0.direction == .down }.count == thresholds.count, "\(crossings)")
        }
    }

    @Test("a force landing exactly on a threshold has reached it")
    func landingExactlyCounts() {
        let script = GestureScript(Self.levels([0.25, 0.5, 0.75]))
        script.pen.down(at: (100, 100), force: 0)
        script.pen.press(pressure: 499)
        expectSequence(script.crossings(of: "levels"), [.up(0)])
        script.pen.press(pressure: 500)
        expectSequence(script.crossings(of: "levels"), [.up(0), .up(1)])
        script.pen.press(pressure: 499)
        expectSequence(script.crossings(of: "levels"), [.up(0), .up(1), .down(1)])
    }

    @Test("a pen that goes down already pressing reports the thresholds it passed on the way")
    func crossingsAtTouchDown() {
        let script = GestureScript(Self.levels([0.25, 0.5, 0.75]))
        script.pen.down(at: (100, 100), force: 0.6)
        expectSequence(script.gestureStates("levels"), [.began, .changed, .changed])
        expectSequence(script.crossings(of: "levels"), [.up(0), .up(1)])
    }

    @Test("with hysteresis a hand resting on a threshold does not chatter")
    func hysteresisStopsChatter() {
        let script = GestureScript(Self.levels([0.5], hysteresis: 0.05))
        script.pen.down(at: (100, 100), force: 0.3)
        for force in [0.5, 0.47, 0.5, 0.46, 0.52] {
            script.pen.press(to: force)
        }
        expectSequence(script.crossings(of: "levels"), [.up(0)])
        script.pen.press(to: 0.44)
        script.pen.press(to: 0.49)
        script.pen.press(to: 0.5)
        expectSequence(script.crossings(of: "levels"), [.up(0), .down(0), .up(0)])
    }

    /// Found in review: with the default hysteresis of 0, a slow press through a threshold
    /// with the sensor's ±2 % jitter ran its `up` command 7 times, and resting there 2 s, 49.
    @Test("by default, a slow press through a threshold with ±2 % jitter, then resting on it 2 s, crosses it once")
    func defaultHysteresisStopsJitter() throws {
        let config = try ConfigLoader.parse("""
            bindings:
              - {name: levels, gesture: pressure-thresholds, thresholds: [0.5], up: {key: XF86AudioRaiseVolume}}
            """, file: "levels.yaml")
        let script = GestureScript(config.bindings)
        script.pen.down(at: (100, 100), force: 0.3)
        // 0.3 to 0.5 over 2 s at 100 Hz, then 2 s on 0.5, each sample off by up to 2 % (a fixed pattern).
        for sample in 1...400 {
            script.clock.advance(by: 0.01)
            let jitter = 0.02 * [0.0, 1, -1, 0.5, -0.5, 1, -1, 0.25][sample % 8]
            script.pen.press(to: min(0.5, 0.3 + 0.001 * Double(sample)) + jitter)
        }
        expectSequence(script.crossings(of: "levels"), [.up(0)])
        #expect(script.actions(of: "levels").count == 1)
    }

    @Test("without hysteresis the same trembling hand crosses every time")
    func noHysteresisChatters() {
        let script = GestureScript(Self.levels([0.5]))
        script.pen.down(at: (100, 100), force: 0.3)
        for force in [0.5, 0.47, 0.5] {
            script.pen.press(to: force)
        }
        expectSequence(script.crossings(of: "levels"), [.up(0), .down(0), .up(0)])
    }

    @Test("with no thresholds every change of force is reported")
    func noThresholdsReportsEveryChange() {
        let script = GestureScript(Self.levels([]))
        script.pen.down(at: (100, 100), force: 0.1)
        script.pen.press(frameByFrame: 0.2, 0.2, 0.35, 0.1)
        script.pen.lift()
        expectSequence(script.gestureStates("levels"), [.began, .changed, .changed, .changed, .ended])
        expectSequence(script.reports(of: "levels").compactMap(\.force), [0.1, 0.2, 0.35, 0.1, 0])
        #expect(script.crossings(of: "levels") == [])
    }

    @Test("thresholds written in any order, or twice, are sorted and counted once")
    func thresholdsAreSorted() {
        #expect(PressureThresholdsRecognizer.Configuration(thresholds: [0.75, 0.25, 0.5, 0.25]).thresholds
                == [0.25, 0.5, 0.75])
    }

    @Test("pressure thresholds watch without owning: the contact goes to the application")
    func doesNotOwn() {
        let script = GestureScript(Self.levels([0.5]))
        script.pen.down(at: (100, 100), force: 0.1)
        expectSequence(script.decisions, [.released(.unbound)])
        script.pen.press(to: 0.6)
        expectSequence(script.crossings(of: "levels"), [.up(0)])
    }
}
