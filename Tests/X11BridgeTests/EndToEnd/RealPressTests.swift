import Foundation
import GestureKit
import Testing
import XorgTestSupport

/// Presses as real hands make them, through the virtual pen on the headless Xorg, with the
/// built-in default config: slow, deliberate deep presses right-click and nothing else; a light
/// press held still reaches the application soon after its force levels off.
///
/// Each force curve is played in real time, and the server's stamps on what arrived are
/// checked against the curve's times (`StimulusFidelity`): a press the machine distorted is
/// played again, and the bridge is judged on faithful presses only. When none of the attempts
/// is faithful the test fails on the environment, by name, never on the bridge.
@Suite("Real presses, live", .requiresXorg, .serialized)
final class RealPressTests: StageSuite {
    static let point: PixelPoint = (400, 300)

    static func rightClicks(_ events: [RecordedEvent]) -> [RecordedEvent] { buttonEvents(3, in: events) }
    static func leftPresses(_ events: [RecordedEvent]) -> [RecordedEvent] {
        buttonEvents(1, in: events).filter { $0.kind == .buttonPress }
    }

    /// A repeatable jitter in -1...1 for sample `index` of press `seed` (a hash, not a generator:
    /// the same press in every run).
    static func jitter(_ index: Int, seed: Int) -> Double {
        let x = sin(Double(index * 7919 + seed * 104_729) * 12.9898) * 43758.5453
        return 2 * (x - x.rounded(.down)) - 1
    }

    /// Sleeps until `time` seconds after `start`.
    static func wait(until time: Double, since start: Date) {
        let remaining = time - Date().timeIntervalSince(start)
        if remaining > 0 { usleep(UInt32(remaining * 1_000_000)) }
    }

    typealias Curve = [(time: Double, force: Double)]

    /// Samples 0 to `last`, `rate` a second from touch-down, each with the force `force` gives
    /// for its time and index.
    static func curve(_ last: Int, perSecond rate: Double, force: (_ time: Double, _ index: Int) -> Double) -> Curve {
        (0...last).map { index in
            let time = Double(index) / rate
            return (time, force(time, index))
        }
    }

    /// Plays `curve` in real time: `down` with the first sample's force, `move` with each later
    /// one at its time (seconds from touch-down). Calls `tick` after each sample with the
    /// seconds since touch-down. A machine that holds the test back sends the samples it owes
    /// at once: the server's stamps tell (`StimulusWitness`).
    static func drive(_ curve: Curve, down: (Double) throws -> Void, move: (Double) throws -> Void,
                      tick: (Double) throws -> Void = { _ in }) throws {
        guard let first = curve.first else { return }
        let start = Date()
        try down(first.force)
        try tick(0)
        for sample in curve.dropFirst() {
            wait(until: sample.time, since: start)
            try move(sample.force)
            try tick(Date().timeIntervalSince(start))
        }
    }

    /// Drives the pen through `curve` in real time and lifts at its end; returns how faithfully
    /// the server took it, the lift included.
    static func press(_ pen: VirtualPen, along curve: Curve, witness: StimulusWitness,
                      tick: (Double) throws -> Void = { _ in }) throws -> StimulusVerdict {
        _ = witness.take()
        try drive(curve, down: { try pen.down(at: point, pressure: $0) }, move: { try pen.press(to: $0) }, tick: tick)
        try pen.up()
        return witness.judge(curve, liftsAtEnd: true, fidelity: .standard)
    }

    /// Waits for the bridge's decision on the pen press since output line `mark`, then for
    /// what the window gets from it: the right-click of a press kept, or the press handed over
    /// and its release. False when either did not come.
    static func settle(_ bridge: BridgeProcess, _ window: RecorderWindow, since mark: Int) -> Bool {
        var decision: DecisionLine.Decision?
        guard bridge.waitForLines(until: { lines in
            decision = lines.dropFirst(mark).lazy.compactMap(\.decision).first?.decision
            return decision != nil
        }) else { return false }
        let arrived: ([RecordedEvent]) -> Bool = decision == .claim
            ? { rightClicks($0).count >= 2 }
            : { buttonEvents(1, in: $0).count >= 2 }
        return arrived(window.events(until: arrived))
    }

    @Test("the six presses of the iPhone recording, pressed in real time with the pen: six right-clicks, no left press")
    func iPhoneRecordingLive() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("GestureKitTests/Fixtures/ios-3dtouch-force-60s.jsonl")
        let trace = try TraceReader.load(path: fixture.path)
        let range = try #require(trace.header.devices.first?.pressure)
        // Each contact's force curve, its times from its own touch-down.
        var curves: [Curve] = []
        var start = 0.0
        for event in trace.events {
            guard let raw = event.pressure else { continue }
            switch event.phase {
            case .begin:
                start = event.time
                curves.append([(0, range.normalize(raw))])
            case .move:
                curves[curves.count - 1].append((event.time - start, range.normalize(raw)))
            case .end, .cancel, .hover:
                break
            }
        }
        #expect(curves.count == 6)

        let bridge = try stage.bridge()
        let witness = try StimulusWitness(stage.server, device: VirtualPen.deviceName)
        // The recording's presses last 4 to 15 s, the synthetic ones a second or two: a stall
        // of a busy machine lands in one more often, hence more tries than their three.
        let attempts = StimulusAttempts(bridge: bridge, window: stage.window, limit: 6)
        for (number, curve) in curves.enumerated() {
            let pressed = try attempts.play("press \(number + 1) of the iPhone recording") { () -> (verdict: StimulusVerdict, result: Bool) in
                let mark = bridge.lines.count
                let verdict = try Self.press(stage.pen, along: curve, witness: witness)
                let settled = Self.settle(bridge, stage.window, since: mark)
                #expect(settled, "the press settled: \(bridge.lines)")
                // The next press only once the bridge has read this one's lift (README's known
                // limit: a press within milliseconds of a kept stroke's lift is lost).
                #expect(try bridge.waitUntilAsleep(quiet: 0.05), "the bridge has read the lift")
                return (verdict, settled)
            }
            guard pressed == true else { return }
        }

        let (events, lines) = attempts.faithfulOutcome()
        let clicks = Self.rightClicks(events)
        #expect(clicks.map(\.kind) == Array(repeating: [RecordedEventKind.buttonPress, .buttonRelease], count: 6).flatMap { $0 })
        #expect(clicks.allSatisfy { $0.rootX == Self.point.x && $0.rootY == Self.point.y })
        #expect(Self.leftPresses(events).isEmpty, "the window got a left press: \(events.filter { $0.kind == .buttonPress })")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        #expect(lines.actions.filter { $0.action == "click" && $0.fields.button == 3 }.count == 6)
        let decisions = lines.decisions
        #expect(decisions.count == 6 && decisions.allSatisfy { $0.decision == .claim }, "\(decisions)")
    }

    /// A light press held still with a jittering force (±2 % of the range around 0.2, at
    /// 100 Hz), and what the window got by the time it had the press and its release. The
    /// result: the seconds from touch-down to the first sample after which the window had the
    /// pen's own press, nil when it came only at the lift.
    static func flatPress(_ stage: Stage, witness: StimulusWitness, seed: Int) throws
        -> (verdict: StimulusVerdict, result: (arrived: Double?, events: [RecordedEvent])) {
        let curve = Self.curve(60, perSecond: 100) { _, index in 0.2 + 0.02 * jitter(index, seed: seed) }
        var arrived: Double?
        let verdict = try Self.press(stage.pen, along: curve, witness: witness) { elapsed in
            if arrived == nil, !Self.leftPresses(stage.window.events(waitingUpTo: 0) { _ in true }).isEmpty {
                arrived = elapsed
            }
        }
        let events = stage.window.events { buttonEvents(1, in: $0).count >= 2 }
        return (verdict, (arrived, events))
    }

    @Test("a light press held still with a jittering force reaches the window while the pen is down, as the pen's own press; never a right-click")
    func flatPressLive() throws {
        let bridge = try stage.bridge()
        let witness = try StimulusWitness(stage.server, device: VirtualPen.deviceName)
        let attempts = StimulusAttempts(bridge: bridge, window: stage.window)

        var delays: [Double] = []
        for seed in 1...20 {
            let pressed = try attempts.play("light press \(seed)") { try Self.flatPress(stage, witness: witness, seed: seed) }
            guard let pressed else { return }
            #expect(pressed.arrived != nil, "press \(seed) reached the window only at its lift (0.6 s)")
            delays.append(pressed.arrived ?? 0.6)
            #expect(Self.rightClicks(pressed.events).isEmpty)
        }
        delays.sort()
        print("light press, ±2 % at 100 Hz, live: in the window after p50 \(Int(delays[10] * 1000)) ms, p95 \(Int(delays[18] * 1000)) ms, max \(Int((delays.last ?? 0) * 1000)) ms")
        let (_, lines) = attempts.faithfulOutcome()
        #expect(lines.actions.isEmpty)
        let reasons = lines.decisions.compactMap { $0.reason?.code }
        #expect(reasons == Array(repeating: "levelled-off", count: 20), "\(reasons)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
    }

    /// Plays `curve` with the pen under the built-in default config, as `name`; then the
    /// window has had one right-click and no left press, and the bridge one decision, a claim
    /// for the deep press. Nothing when no attempt was faithful (`StimulusAttempts`).
    func expectRightClickAlone(_ curve: Curve, name: String) throws {
        let bridge = try stage.bridge()
        let witness = try StimulusWitness(stage.server, device: VirtualPen.deviceName)
        let attempts = StimulusAttempts(bridge: bridge, window: stage.window)
        let pressed = try attempts.play(name) { () -> (verdict: StimulusVerdict, result: Bool) in
            let mark = bridge.lines.count
            let verdict = try Self.press(stage.pen, along: curve, witness: witness)
            #expect(Self.settle(bridge, stage.window, since: mark), "the press settled: \(bridge.lines)")
            return (verdict, true)
        }
        guard pressed == true else { return }

        let (events, lines) = attempts.faithfulOutcome()
        #expect(lines.decisions.map(\.decision) == [.claim], "\(lines.decisions)")
        #expect(Self.rightClicks(events).map(\.kind) == [.buttonPress, .buttonRelease])
        #expect(Self.leftPresses(events).isEmpty)
        #expect(lines.gestures.contains { $0.recognizer == .deepPress && $0.state == .began })
    }

    @Test("a press climbing at 0.2 of the range a second right-clicks at the threshold, after 3.5 s held; the window never sees it begin")
    func slowClimbLive() throws {
        try expectRightClickAlone(Self.curve(100, perSecond: 25) { time, _ in min(0.8, 0.01 + 0.2 * time) },
                                  name: "the press climbing at 0.2 a second")
    }

    /// The tremor rule live (`ForceFollowingHoldTests.slowPressWithTremor`): the same climb with
    /// a hand's 6 Hz wobble of ±0.05, sampled at 100 Hz, went to the window at 0.2 s.
    @Test("a press climbing at 0.2 of the range a second with a tremor's wobble right-clicks at the threshold; the window never sees it begin")
    func slowClimbWithTremorLive() throws {
        let curve = Self.curve(400, perSecond: 100) { time, _ in
            min(0.85, max(0.01, 0.05 + 0.2 * time + 0.05 * sin(2 * .pi * 6 * time)))
        }
        try expectRightClickAlone(curve, name: "the trembling press climbing at 0.2 a second")
    }

    @Test("a press resting above an ordinary touch's force is handed to the window at the hold limit")
    func holdLimitLive() throws {
        let config = try temporaryConfig("""
            hold-limit: 1.5
            bindings:
              - {name: right-click, gesture: deep-press, devices: [pen], threshold: 0.7, action: {click: right}}
            """)
        let bridge = try stage.bridge(["--config", config])
        let witness = try StimulusWitness(stage.server, device: VirtualPen.deviceName)
        let attempts = StimulusAttempts(bridge: bridge, window: stage.window)

        // Up to 0.5 in a quarter of a second, then resting there, jittering a little.
        let curve = Self.curve(250, perSecond: 100) { time, index in
            min(0.5, 2 * time) + (time > 0.25 ? 0.01 * Self.jitter(index, seed: 5) : 0)
        }
        let pressed = try attempts.play("the press resting at 0.5") { () -> (verdict: StimulusVerdict, result: Double?) in
            var handedOver: Double?
            let verdict = try Self.press(stage.pen, along: curve, witness: witness) { elapsed in
                if handedOver == nil, !Self.leftPresses(stage.window.events(waitingUpTo: 0) { _ in true }).isEmpty {
                    handedOver = elapsed
                }
            }
            #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).count >= 2 })
            return (verdict, handedOver)
        }
        guard let handedOver = pressed else { return }

        let arrived = try #require(handedOver, "the press reached the window only at its lift")
        #expect(arrived >= 1.5, "handed over after \(arrived) s, before the limit")
        let (events, lines) = attempts.faithfulOutcome()
        let decision = lines.decisions.first
        #expect(decision?.reason == .limit && decision?.held == 1.5, "\(String(describing: decision))")
        #expect(Self.rightClicks(events).isEmpty)
        #expect(lines.actions.isEmpty)
    }

    @Suite("on a touch-aware window")
    final class OnTouchAwareWindow: TouchAwareStageSuite {
        @Test("a finger pressing on slowly (the recording's fifth press, 3.3 s to the threshold) right-clicks, and a touch-aware window never sees its touch; a light touch after it arrives whole")
        func slowTouchLive() throws {
            let bridge = try stage.bridge()
            let witness = try StimulusWitness(stage.server, device: VirtualTouchscreen.deviceName)
            let attempts = StimulusAttempts(bridge: bridge, window: stage.window)

            // About 0.21 of the range a second, as the fifth press climbs, at 35 Hz.
            let curve = RealPressTests.curve(120, perSecond: 35) { time, _ in min(0.8, 0.01 + 0.21 * time) }
            let pressed = try attempts.play("the finger pressing on slowly") { () -> (verdict: StimulusVerdict, result: [RecordedEvent]) in
                _ = witness.take()
                try RealPressTests.drive(curve, down: { try stage.touch.begin(at: RealPressTests.point, pressure: $0) },
                                         move: { try stage.touch.update(pressure: $0) })
                try TouchOwnershipTests.liftAfterRightClick(stage.server, stage.window)
                // The finger lifts after the right-click, not at a time of the curve's.
                let verdict = witness.judge(curve, liftsAtEnd: false, fidelity: .standard)
                let events = stage.window.events {
                    RealPressTests.rightClicks($0).count >= 2 || $0.contains { $0.kind == .touchEnd }
                }
                return (verdict, events)
            }
            guard let events = pressed else { return }

            #expect(RealPressTests.rightClicks(events).map(\.kind) == [.buttonPress, .buttonRelease])
            #expect(TouchOwnershipTests.touches(in: events).isEmpty)
            #expect(RealPressTests.leftPresses(events).isEmpty)

            try stage.touch.tap(at: (420, 320), pressure: 0.3)
            let afterPress = stage.window.events { $0.dropFirst(events.count).contains { $0.kind == .touchEnd } }
            let next = TouchOwnershipTests.touches(in: Array(afterPress.dropFirst(events.count)))
            #expect(next.first?.kind == .touchBegin && next.last?.kind == .touchEnd, "\(next)")
            #expect(attempts.faithfulOutcome().lines.actions.filter { $0.action == "click" }.count == 1)
        }

        @Test("a finger resting lightly with a jittering force is handed to a touch-aware window while it is down")
        func restingTouchLive() throws {
            let bridge = try stage.bridge()
            let witness = try StimulusWitness(stage.server, device: VirtualTouchscreen.deviceName)
            let attempts = StimulusAttempts(bridge: bridge, window: stage.window)

            let curve = RealPressTests.curve(60, perSecond: 100) { _, index in
                index == 0 ? 0.2 : 0.2 + 0.02 * RealPressTests.jitter(index, seed: 11)
            }
            let pressed = try attempts.play("the finger resting lightly") { () -> (verdict: StimulusVerdict, result: Double?) in
                _ = witness.take()
                var arrived: Double?
                try RealPressTests.drive(curve, down: { try stage.touch.begin(at: RealPressTests.point, pressure: $0) },
                                         move: { try stage.touch.update(pressure: $0) }) { elapsed in
                    if arrived == nil, stage.window.events(waitingUpTo: 0, until: { _ in true }).contains(where: { $0.kind == .touchBegin }) {
                        arrived = elapsed
                    }
                }
                try stage.touch.end()
                let verdict = witness.judge(curve, liftsAtEnd: true, fidelity: .standard)
                #expect(stage.window.waitForEvents { $0.contains { $0.kind == .touchEnd } })
                return (verdict, arrived)
            }
            guard let arrived = pressed else { return }

            #expect(arrived != nil, "the touch reached the window only at its end")
            let (events, lines) = attempts.faithfulOutcome()
            #expect(RealPressTests.rightClicks(events).isEmpty)
            #expect(lines.gestures.contains { $0.gesture == "right-click" && $0.state == .failed },
                    "the bridge saw the touch and let its deep press go")
        }
    }
}
