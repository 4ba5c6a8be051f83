import Foundation
import Testing
@testable import GestureKit

/// The real iPhone 6s force recording (see Fixtures/README.md): what a person can check by eye.
@Suite("The iOS 3D Touch recording")
struct AnalyzeIOSRecordingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let maximumForce = 6.666667

    static func forces() throws -> [Double] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("ios-3dtouch-force-60s.json"))
        guard let values = try JSONSerialization.jsonObject(with: data) as? [Double] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return values
    }

    static func trace() throws -> Trace {
        try TraceReader.load(path: fixtures.appendingPathComponent("ios-3dtouch-force-60s.jsonl").path)
    }

    /// The runs of non-zero values: one per contact.
    static func contacts(_ forces: [Double]) -> [[Double]] {
        forces.split(separator: 0).map(Array.init)
    }

    @Test("the trace is exactly the recording: same samples, one contact per run of non-zero values")
    func traceMatchesRecording() throws {
        let forces = try Self.forces()
        let trace = try Self.trace()
        #expect(forces.count == 2140)
        let down = trace.events.filter { $0.phase == .begin || $0.phase == .move }
        #expect(down.compactMap(\.pressure) == forces.filter { $0 != 0 })
        #expect(trace.events.filter { $0.phase == .begin }.count == Self.contacts(forces).count)
        #expect(trace.events.filter { $0.phase == .end }.count == Self.contacts(forces).count)
        #expect(trace.header.devices.first?.pressure == PressureRange(min: 0, max: Self.maximumForce))
    }

    @Test("analyze finds 6 contacts, about 400 distinct levels, and every contact pressed to the maximum")
    func analyzeFindsWhatGallagherFound() throws {
        let forces = try Self.forces()
        let stats = PressureStatistics.analyze(try Self.trace())
        #expect(stats.count == 1)
        guard let touch = stats.first else { return }
        #expect(touch.contacts == 6)
        #expect(touch.samples == forces.filter { $0 != 0 }.count)
        #expect(touch.distinctLevels == Set(forces.filter { $0 != 0 }).count)
        #expect((390...410).contains(touch.distinctLevels))
        #expect(touch.maximum == Self.maximumForce)
        #expect(touch.contactPeaks == Array(repeating: 1.0, count: 6))
        #expect(touch.histogram.reduce(0, +) == touch.samples)
    }

    /// Found in review: a contact that never said a force counted as a peak of 0, a fake group of
    /// ordinary contacts that a suggestion was then made from.
    @Test("a mouse's clicks and a pen's lines without pressure have no peaks; the pen's presses with it do")
    func noForceNoPeak() throws {
        let trace = try TraceReader.parse("""
            {"trace":1,"devices":[{"id":2,"name":"mouse","kind":"mouse"},{"id":3,"name":"pen","kind":"pen","pressure":{"min":0,"max":100}}]}
            {"t":0,"device":2,"contact":0,"phase":"begin","x":1,"y":1}
            {"t":0.1,"device":2,"contact":0,"phase":"end","x":1,"y":1}
            {"t":0.2,"device":3,"contact":0,"phase":"begin","x":1,"y":1}
            {"t":0.3,"device":3,"contact":0,"phase":"end","x":1,"y":1}
            {"t":0.4,"device":3,"contact":0,"phase":"begin","x":1,"y":1,"pressure":20}
            {"t":0.5,"device":3,"contact":0,"phase":"move","x":1,"y":1,"pressure":80}
            {"t":0.6,"device":3,"contact":0,"phase":"end","x":1,"y":1,"pressure":0}

            """, file: "t.jsonl")
        let stats = PressureStatistics.analyze(trace)
        #expect(stats.map(\.contacts) == [1, 2])
        #expect(stats.map(\.contactPeaks) == [[], [0.8]])
    }

    /// Bindings that observe (they never hold input), so the slow presses of the recording are
    /// judged on force alone.
    static let observing = """
        bindings:
          - {name: deep, gesture: deep-press, threshold: 0.75, release: 0.6, owns-contact: false}
          - {name: levels, gesture: pressure-thresholds, thresholds: [0.25, 0.5, 0.75], hysteresis: 0}
        """

    @Test("six deep presses, one per contact")
    func deepPressCount() throws {
        let config = try ConfigLoader.parse(Self.observing, file: "t")
        let outputs = TraceReplay.run(try Self.trace(), configuration: config)
        let states = outputs.compactMap { output -> GestureState? in
            guard case .gesture(let event) = output, event.gesture == "deep" else { return nil }
            return event.report.state
        }
        #expect(states.filter { $0 == .began }.count == 6)
        #expect(states.filter { $0 == .ended }.count == 6)
        #expect(!states.contains(.failed))
    }

    @Test("threshold crossings match a plain count over the recording")
    func thresholdCrossingCounts() throws {
        let config = try ConfigLoader.parse(Self.observing, file: "t")
        let outputs = TraceReplay.run(try Self.trace(), configuration: config)
        var recognizerCounts: [String: Int] = [:]
        for case .gesture(let event) in outputs where event.gesture == "levels" {
            if let crossing = event.report.crossing {
                recognizerCounts["\(crossing.index)\(crossing.direction.rawValue)", default: 0] += 1
            }
        }
        // Counted independently, as the binding asks with no hysteresis: a threshold is crossed
        // upwards whenever one sample is below it and the next at or above it (a contact starts
        // from 0), downwards the other way round.
        var expected: [String: Int] = [:]
        for contact in Self.contacts(try Self.forces()) {
            let normalized = [0] + contact.map { $0 / Self.maximumForce }
            for (index, threshold) in [0.25, 0.5, 0.75].enumerated() {
                for (before, after) in zip(normalized, normalized.dropFirst()) {
                    if before < threshold && after >= threshold { expected["\(index)up", default: 0] += 1 }
                    if before >= threshold && after < threshold { expected["\(index)down", default: 0] += 1 }
                }
            }
        }
        #expect(recognizerCounts == expected)
        #expect((expected["2up"] ?? 0) >= 6, "every contact reaches 0.75")
    }
}
