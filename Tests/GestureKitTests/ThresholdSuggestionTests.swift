import Testing
@testable import GestureKit

/// A threshold from how a person presses: the gap between their ordinary contacts' peaks and
/// their hard presses' peaks.
@Suite("Threshold suggestions")
struct ThresholdSuggestionTests {
    static let light = [0.18, 0.22, 0.25, 0.2, 0.3, 0.27, 0.24, 0.21, 0.26, 0.28]
    static let hard = [0.82, 0.9, 0.86, 0.95, 0.88]

    @Test("two clear groups: the threshold halfway across the gap, the release between the ordinary peak and it")
    func twoGroups() throws {
        let suggestion = try #require(ThresholdSuggestion(ordinaryPeaks: Self.light, hardPeaks: Self.hard))
        #expect(suggestion.ordinaryPeak == 0.28, "the 90th percentile of the ordinary peaks")
        #expect(suggestion.hardPeak == 0.82, "the 10th percentile of the hard peaks")
        #expect(suggestion.threshold == 0.55)
        #expect(suggestion.release > suggestion.ordinaryPeak && suggestion.release < suggestion.threshold)
        // The hardest ordinary peak (0.30) and the learning rule's headroom, 0.03: above half
        // the threshold, as the defaults' 0.35 is of 0.7.
        #expect(suggestion.ordinary == 0.33)
        #expect(abs(suggestion.margin - 0.54) < 1e-9)
        #expect(suggestion.isReliable && !suggestion.overlaps)
    }

    @Test("groups that overlap say so, and the suggestion is not reliable")
    func overlapping() throws {
        let suggestion = try #require(ThresholdSuggestion(ordinaryPeaks: [0.3, 0.5, 0.7, 0.6], hardPeaks: [0.55, 0.8, 0.9]))
        #expect(suggestion.overlaps)
        #expect(!suggestion.isReliable)
        #expect(suggestion.release < suggestion.threshold)
        #expect(suggestion.ordinary <= suggestion.release)
    }

    @Test("one stray firm tap among the ordinary ones moves the threshold little")
    func strayContact() throws {
        let plain = try #require(ThresholdSuggestion(ordinaryPeaks: Self.light, hardPeaks: Self.hard))
        let stray = try #require(ThresholdSuggestion(ordinaryPeaks: Self.light + [0.6], hardPeaks: Self.hard))
        #expect(abs(stray.threshold - plain.threshold) <= 0.02)
    }

    @Test("one recording: split at the widest gap between its contact peaks")
    func oneRecording() throws {
        let suggestion = try #require(ThresholdSuggestion(peaks: Self.hard + Self.light))
        #expect(suggestion.threshold == 0.55)
    }

    @Test("a gap of exactly 0.1 between raw levels (200 and 300 of 1000) is gap enough")
    func gapAtTheLimit() throws {
        let peaks = [100.0, 120, 150, 180, 200, 300, 320, 350].map { $0 / 1000 }
        let suggestion = try #require(ThresholdSuggestion(peaks: peaks))
        #expect(suggestion.ordinaryPeak == 0.2 && suggestion.hardPeak == 0.3)
        #expect(suggestion.isReliable && !suggestion.overlaps)
    }

    @Test("overlapping groups still give a release and ordinary level of two decimals, below the threshold")
    func overlappingRounded() throws {
        // Threshold 0.69: a release of 0.69 - 0.01 unrounded is 0.6799999999999999.
        let suggestion = try #require(ThresholdSuggestion(ordinaryPeaks: [0.3, 0.5, 0.7, 0.6], hardPeaks: [0.68, 0.8, 0.9]))
        #expect(suggestion.threshold == 0.69)
        #expect(suggestion.release == 0.68)
        // 0.1 below the threshold at most, as the learning rule keeps it.
        #expect(suggestion.ordinary == 0.59)
        #expect(suggestion.overlaps)
    }

    @Test("no gap, or nothing to go on: no suggestion", arguments: [
        [Double](repeating: 1, count: 6),   // the iPhone recording: every contact pressed to the maximum
        [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5],
        [0.5],
        [],
        // Found in review: a light tap and a hard press gave a threshold; too few to tell.
        [0.2, 0.9],
        [0.2, 0.25, 0.3, 0.3, 0.9, 0.95],
        [0.2, 0.25, 0.9, 0.92, 0.95],
    ])
    func noSuggestion(peaks: [Double]) {
        #expect(ThresholdSuggestion(peaks: peaks) == nil)
    }

    /// Found in review: the widest gap split one contact off alone (a light graze far below
    /// the strokes, a press to the maximum), and no threshold was suggested from 20 strokes
    /// and 8 or 10 hard presses.
    @Test("a graze far below the strokes, or one press to the maximum, does not keep the strokes and hard presses apart")
    func strayContactFarOut() throws {
        let strokes: [Double] = (0..<20).map { 0.25 + Double($0) * 0.0075 }
        let presses: [Double] = (0..<8).map { 0.60 + Double($0) * 0.025 }
        let grazed = try #require(ThresholdSuggestion(peaks: [0.02] + strokes + presses))
        #expect(grazed.threshold > 0.4 && grazed.threshold < 0.6, "\(grazed)")
        let lighter: [Double] = (0..<20).map { 0.10 + Double($0) * 0.01 }
        let harder: [Double] = (0..<9).map { 0.55 + Double($0) * 0.012 }
        let pushed = try #require(ThresholdSuggestion(peaks: lighter + harder + [1.0]))
        #expect(pushed.threshold > 0.29 && pushed.threshold < 0.55, "\(pushed)")
    }

    @Test("an empty group gives no suggestion")
    func emptyGroup() {
        #expect(ThresholdSuggestion(ordinaryPeaks: [], hardPeaks: Self.hard) == nil)
        #expect(ThresholdSuggestion(ordinaryPeaks: Self.light, hardPeaks: []) == nil)
    }

    @Test("the binding it writes is valid config, named after the device, and listens to it alone")
    func binding() throws {
        let suggestion = try #require(ThresholdSuggestion(ordinaryPeaks: Self.light, hardPeaks: Self.hard))
        let text = "bindings:\n" + suggestion.binding(forDevice: "Wacom Intuos S Pen \"stylus\"")
        let config = try ConfigLoader.parse(text, file: "t")
        let binding = try #require(config.bindings.first)
        #expect(binding.name == "right-click-wacom-intuos-s-pen-stylus")
        #expect(binding.devices == [.named("Wacom Intuos S Pen \"stylus\"")])
        guard case .deepPress(let deep) = binding.recognizer else {
            Issue.record("not a deep press: \(binding.recognizer)")
            return
        }
        #expect(deep.threshold == suggestion.threshold && deep.release == suggestion.release && deep.ordinary == suggestion.ordinary)
    }

    @Test("after calibrating taps of 0.10-0.15 and hard presses of 0.8-0.9, a still press a little firmer than the taps levels off and goes to the application at once")
    func stillPressAfterCalibration() throws {
        let suggestion = try #require(ThresholdSuggestion(ordinaryPeaks: [0.1, 0.12, 0.15, 0.11, 0.13], hardPeaks: [0.8, 0.85, 0.9]))
        #expect(suggestion.ordinary >= suggestion.threshold / 2 && suggestion.ordinary < suggestion.release, "\(suggestion)")
        let script = GestureScript(suggestion.deepPress(forDevice: GestureScript.penDevice.name))
        script.pen.down(at: (100, 100), force: 0.1)
        script.pen.press(frameByFrame: 0.22)
        script.clock.advance(by: 0.5)
        script.pen.aFrameLater().move(to: (100, 100), force: 0.22)
        #expect(script.decisions == [.released(.levelledOff)], "\(script.decisions)")
        script.pen.lift()
    }

    @Test("calibrating keeps what the device's deep press says besides its levels: where it applies, what it does, its slop and feedback")
    func keepsThePersonsRules() throws {
        let config = try ConfigLoader.parse("""
            bindings:
              - name: right-click
                gesture: deep-press
                devices: [pen]
                threshold: learned
                slop: 20
                feedback: [pulse]
                applications: {except: [krita]}
                action: {key: ctrl+z}
            """, file: "c.yaml")
        let suggestion = try #require(ThresholdSuggestion(ordinaryPeaks: [0.2, 0.3], hardPeaks: [0.8, 0.9]))
        let text = "bindings:\n" + suggestion.binding(forDevice: "Test Pen", basedOn: config.bindings.first)
        let written = try #require(try ConfigLoader.parse(text, file: "w.yaml").bindings.first)
        #expect(written.name == "right-click-test-pen" && written.devices == [.named("Test Pen")])
        #expect(written.applications == .except(["krita"]))
        #expect(written.onStart == [.key(KeyCombo(keys: ["ctrl", "z"]))])
        #expect(written.feedback == [.pulse])
        guard case .deepPress(let levels) = written.recognizer else { Issue.record("not a deep press"); return }
        #expect(levels.slop == 20 && !levels.learned && levels.threshold == suggestion.threshold)
    }

    @Test("a device whose pressure stays low in its range (taps to 0.01, hard presses 0.03-0.04) gets a threshold its hard presses reach")
    func lowRange() throws {
        let suggestion = try #require(ThresholdSuggestion(ordinaryPeaks: [0.006, 0.008, 0.01, 0.009, 0.007], hardPeaks: [0.03, 0.035, 0.04]))
        #expect(suggestion.threshold <= 0.03 && suggestion.threshold > 0.01, "\(suggestion)")
        #expect(suggestion.release < suggestion.threshold && suggestion.ordinary <= suggestion.release)
        _ = try ConfigLoader.parse("bindings:\n" + suggestion.binding(forDevice: "Low Pen"), file: "low.yaml")
    }
}
