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
        #expect(suggestion.ordinary == 0.28)
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
        let peaks = [150.0, 200, 300, 350].map { $0 / 1000 }
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
        #expect(suggestion.ordinary == 0.68)
        #expect(suggestion.overlaps)
    }

    @Test("no gap, or nothing to go on: no suggestion", arguments: [
        [Double](repeating: 1, count: 6),   // the iPhone recording: every contact pressed to the maximum
        [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5],
        [0.5],
        [],
    ])
    func noSuggestion(peaks: [Double]) {
        #expect(ThresholdSuggestion(peaks: peaks) == nil)
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
}
