import Foundation
import Testing
@testable import GestureKit
import SeededRandom

/// A still press is held back from the application while its force is still rising, or holding
/// above an ordinary touch's, and goes to the application once it levels off at an ordinary
/// level (`HoldPolicy`). Every press here is made with the built-in default config: a deep
/// press at 0.7, ordinary up to 0.35, a hold limit of 8 s.
@Suite("The hold follows the force")
struct ForceFollowingHoldTests {
    static func defaults() throws -> BindingSet {
        try ConfigLoader.parse(DefaultConfig.text, file: DefaultConfig.name)
    }

    static func script() throws -> GestureScript {
        GestureScript(configuration: try defaults())
    }

    // MARK: Real presses

    @Test("the iPhone recording with the default config: six deep presses, six right-clicks, each the moment the force reaches 0.7")
    func iPhoneRecording() throws {
        let trace = try AnalyzeIOSRecordingTests.trace()
        let outputs = TraceReplay.run(trace, configuration: try Self.defaults())
        let decisions = outputs.compactMap { if case .decision(let decision) = $0 { return decision } else { return nil } }
        #expect(decisions.map(ScriptDecision.init) == Array(repeating: .claimed(by: "right-click"), count: 6))
        let clicks = outputs.compactMap { output -> ActionEvent? in
            guard case .action(let event) = output, event.action == .click(button: 3) else { return nil }
            return event
        }
        #expect(clicks.count == 6)
        // When each contact first reaches 0.7 of the range, counted straight from the samples.
        let range = try #require(trace.header.devices.first?.pressure)
        var reached: [Double] = []
        var down = false
        for event in trace.events {
            switch event.phase {
            case .begin: down = true; fallthrough
            case .move:
                if down, let raw = event.pressure, range.normalize(raw) >= 0.7 {
                    reached.append(event.time)
                    down = false
                }
            case .end, .cancel, .hover: down = false
            }
        }
        #expect(reached.count == 6)
        #expect(decisions.map(\.time) == reached)
        #expect(clicks.map(\.time) == reached)
    }

    @Test("a press that climbs to 0.57, eases back to 0.48 for a second, then presses on (the recording's second) right-clicks")
    func easeBackThenOn() throws {
        let script = try Self.script()
        let curve = ForceCurve.corners([(0, 0), (1.1, 0.57), (1.6, 0.48), (2.6, 0.48), (2.9, 0.73), (3.2, 0.4)], hertz: 35)
        script.pressPen(along: curve)
        expectSequence(script.decisions, [.claimed(by: "right-click")])
        #expect(script.penDecision(since: 0)?.after == curve.time(reaching: 0.7))
        expectSequence(script.actions, [.click(button: 3, at: (300, 300))])
    }

    // MARK: A hand with a tremor

    /// `curve` with a tremor's wobble: `amplitude` of force at `hertz`.
    static func trembling(_ curve: ForceCurve, amplitude: Double, hertz: Double, phase: Double = 0) -> ForceCurve {
        ForceCurve(samples: curve.samples.map { ($0.time, min(1, max(0, $0.force + amplitude * sin(2 * .pi * hertz * $0.time + phase)))) })
    }

    /// Found by a review of a day with a hand's tremor: over one window (0.2 s, about a cycle)
    /// the wobble swamps a slow climb, and the press went to the application at 0.2 s, never
    /// to right-click, however deep it went. A press whose force swings down and up again is
    /// now held while its peaks still rise (`HoldPolicy.tremorSpan`).
    @Test("a slow deep press with a tremor's wobble in its force right-clicks once, as it does without, whatever the phase",
          arguments: [(sensor: 200.0, tremor: 6.0, amplitude: 0.03), (200, 6, 0.05), (200, 8, 0.05), (200, 6, 0.1), (200, 8, 0.1), (100, 6, 0.05),
                      (35, 6, 0.1)], [0.19, 0.4])
    func slowPressWithTremor(shake: (sensor: Double, tremor: Double, amplitude: Double), rate: Double) throws {
        let climb = ForceCurve.climb(from: 0.05, rate: rate, ceiling: 0.85, hertz: shake.sensor, seconds: 5)
        for phase in stride(from: 0.0, to: 2 * Double.pi, by: Double.pi / 4) {
            let script = try Self.script()
            script.pressPen(along: Self.trembling(climb, amplitude: shake.amplitude, hertz: shake.tremor, phase: phase))
            expectSequence(script.decisions, [.claimed(by: "right-click")])
            #expect(script.actions.count == 1, "phase \(phase): \(script.actions)")
        }
        // Without the wobble, the same press right-clicks.
        let steady = try Self.script()
        steady.pressPen(along: climb)
        expectSequence(steady.decisions, [.claimed(by: "right-click")])
    }

    /// What the tremor rule does not reach: a 35 Hz sensor's samples, averaged over three to
    /// tell noise from a wobble, smooth an 8 Hz tremor of ±0.05 away (README, known limits).
    @Test("a slow deep press with an 8 Hz tremor on a 35 Hz sensor right-clicks")
    func fastTremorOnSlowSensor() throws {
        let script = try Self.script()
        let climb = ForceCurve.climb(from: 0.05, rate: 0.19, ceiling: 0.85, hertz: 35, seconds: 5)
        script.pressPen(along: Self.trembling(climb, amplitude: 0.05, hertz: 8, phase: Double.pi / 2))
        withKnownIssue("an 8 Hz tremor on a 35 Hz sensor is averaged away (README, known limits)") {
            expectSequence(script.decisions, [.claimed(by: "right-click")])
        }
    }

    @Test("a light press with a tremor's wobble goes to the application within half a second, whatever the phase",
          arguments: [(force: 0.2, amplitude: 0.1, tremor: 5.0), (0.15, 0.05, 8), (0.25, 0.04, 4), (0.3, 0.05, 6), (0.1, 0.03, 4)], [35.0, 200])
    func lightPressWithTremor(press: (force: Double, amplitude: Double, tremor: Double), sensor: Double) throws {
        var generator = SplitMix64(seed: 7)
        for phase in stride(from: 0.0, to: 2 * Double.pi, by: Double.pi / 4) {
            let script = try Self.script()
            script.pressPen(along: Self.trembling(.flat(press.force, noise: 0.01, hertz: sensor, seconds: 2, using: &generator),
                                                  amplitude: press.amplitude, hertz: press.tremor, phase: phase))
            let decided = try #require(script.penDecision(since: 0))
            #expect(decided.decision == .released(.levelledOff))
            #expect(decided.after <= 0.5, "phase \(phase): \(decided)")
            #expect(script.actions.isEmpty, "\(script.actions)")
        }
    }

    /// Found by a review of the tremor rule's day: a landing that overshoots and settles swings
    /// down like a tremor's first wobble, and for the first quarter second there are no earlier
    /// peaks to compare, so the press is held until the overshoot's peak is in the earlier half
    /// (0.3 s, not 0.21 as before the rule). Telling them apart sooner hands trembling slow deep
    /// presses to the application (`slowPressWithTremor` fails in most phases when the empty half
    /// does not count as lower): a left press 90 ms later is the smaller harm. This holds the bound.
    @Test("a light press whose landing overshoots to 0.3 and settles at 0.25 goes to the application once the overshoot is a quarter second old",
          arguments: [200.0, 1000])
    func bouncyLanding(hertz: Double) throws {
        let script = try Self.script()
        script.pressPen(along: .corners([(0, 0.02), (0.03, 0.25), (0.06, 0.30), (0.12, 0.25), (1.5, 0.25)], hertz: hertz))
        try Self.expectLevelledOff(script, within: 0.06 + HoldPolicy.tremorSpan / 2 + 0.01)
    }

    // MARK: Ordinary presses

    @Test("a light press held still at a flat 0.2 with ±2 % noise goes to the application within 0.3 s (p95 of 20), never after 0.5 s",
          arguments: [35.0, 100, 200, 1000])
    func flatPressWithNoise(hertz: Double) throws {
        var generator = SplitMix64(seed: UInt64(hertz))
        var delays: [Double] = []
        for _ in 0..<20 {
            let script = try Self.script()
            script.pressPen(along: .flat(0.2, noise: 0.02, hertz: hertz, seconds: 1, using: &generator))
            let decided = try #require(script.penDecision(since: 0))
            #expect(decided.decision == .released(.levelledOff))
            delays.append(decided.after)
        }
        delays.sort()
        let p95 = try #require(ThresholdSuggestion.percentile(0.95, of: delays))
        #expect(p95 <= 0.3, "\(hertz) Hz: \(delays)")
        print("flat press at \(Int(hertz)) Hz, ±2 % noise: handed over after p50 \(Int(delays[10] * 1000)) ms, p95 \(Int(p95 * 1000)) ms, max \(Int((delays.last ?? 0) * 1000)) ms")
        #expect(delays.allSatisfy { $0 <= BindingSet.defaultDecisionTimeout }, "\(hertz) Hz: \(delays)")
    }

    @Test("a press that climbs to an ordinary 0.25 and stays there goes to the application within 0.3 s of levelling off (0.5 s when its samples stop)",
          arguments: [0.1, 0.5, 2.0], [35.0, 1000])
    func plateauAtOrdinary(rate: Double, hertz: Double) throws {
        let levelled = 0.25 / rate
        for samplesStop in [false, true] {
            let script = try Self.script()
            // Either the sensor keeps reporting the same force, or (as X does when nothing
            // changes) it goes quiet once the force stops changing: then the press is judged
            // steady half a second after its last sample.
            let curve = ForceCurve.climb(rate: rate, ceiling: 0.25, hertz: hertz,
                                         seconds: samplesStop ? levelled : levelled + 1)
            script.pressPen(along: curve, lift: false)
            script.clock.advance(to: max(script.clock.now, levelled + 1))
            let decided = try #require(script.penDecision(since: 0))
            #expect(decided.decision == .released(.levelledOff))
            #expect(decided.after >= levelled && decided.after <= levelled + (samplesStop ? HoldPolicy.quiet + 0.03 : 0.3),
                    "\(rate)/s at \(hertz) Hz, samples stop: \(samplesStop): after \(decided.after) s")
            print("climb at \(rate)/s to 0.25, \(Int(hertz)) Hz, samples \(samplesStop ? "stop" : "go on"): handed over \(Int(((decided.after - levelled) * 1000).rounded())) ms after levelling off")
        }
    }

    // MARK: Deliberate presses

    @Test("a press climbing at 0.1 of the range a second or faster is held until it reaches the threshold",
          arguments: [0.1, 0.2, 0.5, 1.0], [35.0, 200, 1000])
    func climbingIsHeld(rate: Double, hertz: Double) throws {
        let script = try Self.script()
        let curve = ForceCurve.climb(rate: rate, hertz: hertz, seconds: 0.75 / rate)
        script.pressPen(along: curve)
        expectSequence(script.decisions, [.claimed(by: "right-click")])
        #expect(script.penDecision(since: 0)?.after == curve.time(reaching: 0.7))
    }

    @Test("a slow climb whose samples are held back 0.4 s (a busy machine) is still held until the threshold")
    func samplesHeldBack() throws {
        let script = try Self.script()
        let climb = ForceCurve.climb(from: 0.01, rate: 0.2, hertz: 35, seconds: 3.6)
        // Nothing arrives between 0.5 and 0.9 s: the samples of that stretch are lost.
        script.pressPen(along: ForceCurve(samples: climb.samples.filter { $0.time < 0.5 || $0.time > 0.9 }))
        expectSequence(script.decisions, [.claimed(by: "right-click")])
        #expect(script.penDecision(since: 0)?.after == climb.time(reaching: 0.7))
    }

    /// Plays a slow climb (0.3 of the range a second, 200 Hz) whose samples made from `stall`'s
    /// start to its end reach the engine dated at its end, together: how X stamps what its input
    /// thread reads after the server stood still, and how the bridge dates samples stamped
    /// before one of its timers fired but read after it.
    static func climbStalled(_ stall: ClosedRange<Double>) throws -> GestureScript {
        let script = try Self.script()
        let climb = ForceCurve.climb(from: 0.05, rate: 0.3, hertz: 200, seconds: 3)
        script.pen.down(at: (300, 300), force: climb.samples[0].force)
        for sample in climb.samples.dropFirst() {
            script.clock.advance(to: stall.contains(sample.time) ? stall.upperBound : sample.time)
            script.pen.press(to: sample.force)
        }
        script.pen.lift()
        return script
    }

    /// Found in review (a busy machine): the first sample read after the stall carries the
    /// force from before it, 0.3 s later, and the samples after it share one time: either way
    /// the window read as a press that had stood still at 0.29, and it went to the application.
    @Test("a slow climb whose samples of a 0.3 s X server stall come stamped at one time still right-clicks, alone",
          arguments: [0.8...1.1, 0.3...0.6, 0.25...0.5])
    func stampsSquashedByAStall(stall: ClosedRange<Double>) throws {
        let script = try Self.climbStalled(stall)
        expectSequence(script.decisions, [.claimed(by: "right-click")])
        #expect(script.actions.map(\.action) == [.click(button: 3)], "\(script.actions)")
    }

    /// Found in review of the stall's fix: its first version started the course again after
    /// every silence, so a driver that sends a sample only when its coarse pressure changes
    /// (every 0.1-0.45 s) held a light still press for seconds, never judged.
    @Test("a light still press whose driver sends a sample only when its coarse pressure steps goes to the application as before, 10 ms later at most",
          arguments: Array(0...8) as [UInt64])
    func sparseLightPress(seed: UInt64) throws {
        let script = try Self.script()
        var random = SplitMix64(seed: seed)
        script.pen.down(at: (300, 300), force: 0.2)
        var time = 0.0
        var step = 0
        // Seed 0: a step every 0.3 s; the others: 0.1-0.45 s apart.
        while time < 3 {
            time += seed == 0 ? 0.3 : Double.random(in: 0.1...0.45, using: &random)
            step += 1
            script.clock.advance(to: time)
            script.pen.press(to: step % 2 == 1 ? 0.21 : 0.2)
            if script.penDecision(since: 0) != nil { break }
        }
        let decided = try #require(script.penDecision(since: 0), "never decided: \(script.decisions)")
        #expect(decided.decision == .released(.levelledOff))
        // Judged at the second sample after 0.2 s (the first with a window behind it), or at the
        // quiet 0.5 s after the first: 0.9 s at the most, 10 ms for a bunch that never came.
        #expect(decided.after <= 0.91, "\(decided.after)")
    }

    /// The same, recorded: samples stamped over two milliseconds after the stall, the first
    /// with the force from before it (found live: a bunch judged one time at a time was still
    /// taken for a press that had stood still at 0.25).
    @Test("a recorded slow press through a 0.3 s X server stall right-clicks, alone, the moment it reaches 0.7")
    func recordedServerStall() throws {
        let trace = try TraceReader.load(path: AnalyzeIOSRecordingTests.fixtures.appendingPathComponent("server-stall-slow-press.jsonl").path)
        let outputs = TraceReplay.run(trace, configuration: try Self.defaults())
        let decisions = outputs.compactMap { if case .decision(let decision) = $0 { return decision } else { return nil } }
        #expect(decisions.map(ScriptDecision.init) == [.claimed(by: "right-click")])
        let range = try #require(trace.header.devices.first?.pressure)
        let reached = trace.events.first { $0.phase == .move && ($0.pressure.map(range.normalize) ?? 0) >= 0.7 }
        #expect(decisions.first?.time == reached?.time)
    }

    /// Found in review of the stall's fix: its fourth version took every run of one stamp for
    /// one sample, and X stamps a fast pen's samples in whole milliseconds, a few late: a slow
    /// climb kept a few dozen of its 200 points a window, and its ±2 % scatter hid the climb.
    @Test("a slow climb (0.1 a second, ±2 %) from a 1000 Hz pen whose millisecond stamps come up to 10 ms late, and from a 200 Hz pen (±1 %, up to 50 ms late), right-clicks",
          arguments: [1000.0, 200.0], Array(0..<10) as [UInt64])
    func jitteredFastPenClimb(hertz: Double, seed: UInt64) throws {
        let script = try Self.script()
        var random = SplitMix64(seed: seed)
        let (noise, lateness) = hertz == 1000 ? (0.02, 0.01) : (0.01, 0.05)
        script.pen.down(at: (300, 300), force: 0.05)
        var stamp = 0.0
        for index in 1...Int(8 * hertz) {
            let made = Double(index) / hertz
            let force = min(0.8, 0.05 + 0.1 * made) + Double.random(in: -noise...noise, using: &random)
            // Late, in whole milliseconds, never before the sample before it.
            stamp = max(stamp, ((made + Double.random(in: 0...lateness, using: &random)) * 1000).rounded(.down) / 1000)
            script.clock.advance(to: stamp)
            script.pen.press(to: force)
            if script.penDecision(since: 0) != nil { break }
        }
        expectSequence(script.decisions, [.claimed(by: "right-click")])
    }

    /// Found in a sweep of the stall's fix, fifth version: a driver that sends only changes, in
    /// coarse steps, flickers between two steps at each boundary; its first sample of a step,
    /// after more than 0.1 s without one, was taken for a stall's bunch, and the bunch for its
    /// last sample, often the lower step: the climb read as flat, and the press was handed over.
    @Test("a slow climb (0.2 a second) from a 1000 Hz pen in steps of 1/32, flickering at each (±0.5 %), repeats dropped, right-clicks",
          arguments: Array(0..<10) as [UInt64])
    func coarseFlickeringClimb(seed: UInt64) throws {
        let script = try Self.script()
        var random = SplitMix64(seed: seed)
        func stepped(_ force: Double) -> Double { (force * 32).rounded() / 32 }
        var sent = stepped(0.1)
        script.pen.down(at: (300, 300), force: sent)
        for index in 1...8000 {
            let made = Double(index) / 1000
            let force = stepped(min(0.8, 0.1 + 0.2 * made) + Double.random(in: -0.005...0.005, using: &random))
            guard force != sent else { continue }
            sent = force
            script.clock.advance(to: made)
            script.pen.press(to: force)
            if script.penDecision(since: 0) != nil { break }
        }
        expectSequence(script.decisions, [.claimed(by: "right-click")])
    }

    /// Found in review of the stall's fix: its second version started the course again at
    /// every bunch after a silence, and bunches that keep coming kept a light press from ever
    /// being judged, held to the hold limit.
    @Test("a light still press whose coarse pressure flickers in pairs every 0.15 s, each pair of one stamp or 1 ms apart, goes to the application within 0.6 s",
          arguments: [0, 0.001])
    func flickeringPairs(apart: Double) throws {
        let script = try Self.script()
        script.pen.down(at: (300, 300), force: 0.2)
        var time = 0.0
        while time < 9, script.penDecision(since: 0) == nil {
            time += 0.15
            script.clock.advance(to: time)
            script.pen.press(to: 0.21)
            script.clock.advance(to: time + apart)
            script.pen.press(to: 0.2)
        }
        try Self.expectLevelledOff(script, within: 0.6)
    }

    /// The pen's press went to the application as one whose force levelled off, within
    /// `seconds` of touch-down (the hold limit's 8 s passed first: it never was judged).
    static func expectLevelledOff(_ script: GestureScript, within seconds: Double,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        script.clock.advance(to: 9.5)
        let decided = try #require(script.penDecision(since: 0), "never decided", sourceLocation: sourceLocation)
        #expect(decided.decision == .released(.levelledOff), "\(decided)", sourceLocation: sourceLocation)
        #expect(decided.after <= seconds, "\(decided.after)", sourceLocation: sourceLocation)
    }

    @Test("a light still press (0.2 ± 0.01, 60 Hz) on a machine whose X server stands still 0.15 s in every 0.25 s goes to the application within 1 s")
    func periodicStalls() throws {
        let script = try Self.script()
        var random = SplitMix64(seed: 3)
        script.pen.down(at: (300, 300), force: 0.2)
        var time = 1.0 / 60
        while time < 9, script.penDecision(since: 0) == nil {
            let phase = time.truncatingRemainder(dividingBy: 0.25)
            script.clock.advance(to: phase >= 0.1 ? time - phase + 0.25 : time)
            script.pen.press(to: 0.2 + Double.random(in: -0.01...0.01, using: &random))
            time += 1.0 / 60
        }
        try Self.expectLevelledOff(script, within: 1)
    }

    @Test("a press that stops climbing above an ordinary touch's force is held until the hold limit, then handed over")
    func heldToTheLimit() throws {
        let script = try Self.script()
        var generator = SplitMix64(seed: 7)
        let climb = ForceCurve.climb(rate: 0.5, ceiling: 0.5, hertz: 200, seconds: 1)
        let stay = ForceCurve.flat(0.5, noise: 0.02, hertz: 200, seconds: 9, using: &generator)
        script.pressPen(along: ForceCurve(samples: climb.samples + stay.samples.dropFirst().map { ($0.time + 1, $0.force) }),
                        lift: false)
        let decided = try #require(script.penDecision(since: 0))
        #expect(decided.decision == .released(.limit))
        #expect(decided.after == BindingSet.defaultHoldLimit)
        expectSequence(script.gestureStates("right-click"), [.failed])
    }

    @Test("samples that stop above an ordinary touch's force: held until the limit, exactly")
    func quietAboveOrdinary() throws {
        let script = try Self.script()
        script.pressPen(along: .climb(rate: 1, ceiling: 0.5, hertz: 100, seconds: 0.5), lift: false)
        script.clock.advance(to: 7.99)
        #expect(script.decisions == [])
        script.clock.advance(to: 20)
        expectSequence(script.engineDecisions, [.release(script.pen.key, reason: .limit, time: 8, held: 8)])
    }

    @Test("a press held across a reload keeps the hold limit it began with; the next press takes the new one")
    func reloadKeepsTheLimit() throws {
        let script = try Self.script()
        script.pressPen(along: .climb(rate: 1, ceiling: 0.5, hertz: 100, seconds: 0.5), lift: false)
        let bindings = try Self.defaults().bindings
        script.replaceBindings(bindings, holdLimit: 2)
        script.clock.advance(to: 7.99)
        #expect(script.decisions == [])
        script.clock.advance(to: 8)
        expectSequence(script.engineDecisions, [.release(script.pen.key, reason: .limit, time: 8, held: 8)])
        script.pen.lift()

        script.clock.advance(to: 10)
        script.forgetOutputs()
        script.pressPen(along: .climb(rate: 1, ceiling: 0.5, hertz: 100, seconds: 0.5), lift: false)
        script.clock.advance(to: 13)
        expectSequence(script.engineDecisions, [.release(script.pen.key, reason: .limit, time: 12, held: 2)])
    }

    // MARK: What the person sees

    @Test("the force ring shows from touch-down while the press is held, and goes the moment it is handed over")
    func ringShowsTheHold() throws {
        let script = try Self.script()
        var generator = SplitMix64(seed: 3)
        script.pressPen(along: .flat(0.2, noise: 0.02, hertz: 100, seconds: 1, using: &generator), lift: false)
        guard case .progress(let fraction) = script.feedback.first else {
            Issue.record("the ring did not show at touch-down: \(script.feedback)")
            return
        }
        #expect(abs(fraction - 0.2 / 0.7) < 0.05, "the ring starts at the force's share of the threshold")
        let handedOver = try #require(script.penDecision(since: 0)).after
        let ended = try #require(script.outputs.firstIndex { if case .feedback(.progressEnded) = $0 { true } else { false } })
        let released = try #require(script.outputs.firstIndex { if case .decision = $0 { true } else { false } })
        #expect(ended < released, "the ring goes with the hand-over at \(handedOver) s")
        #expect(script.feedback.filter { $0 == .progressEnded }.count == 1)
    }

    // MARK: Presses whose force says nothing

    @Test("a press that sends nothing after touch-down is held for the decision timeout, as before")
    func silentPressKeepsTheTimeout() throws {
        let script = try Self.script()
        script.pen.down(at: (300, 300), force: 0.2)
        script.clock.advance(to: 0.49)
        #expect(script.decisions == [])
        script.clock.advance(to: 1)
        expectSequence(script.engineDecisions, [.release(script.pen.key, reason: .timeout, time: 0.5, held: 0.5)])
    }
}
