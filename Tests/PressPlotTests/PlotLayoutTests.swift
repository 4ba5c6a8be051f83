import Foundation
import GestureKit
import Testing
@testable import PressPlot

/// The picture's layout, checked as values: which panels, which lines at which rows, which
/// markers where.
@Suite("Press plot: layout")
struct PlotLayoutTests {
    static let pen = InputDevice(id: 3, name: "Test Pen stylus", kind: .pen, pressure: PressureRange(min: 0, max: 1000))
    static let configured = PressLevels(threshold: 0.7, release: 0.5, ordinary: 0.35)

    /// A contact rising to `peak` over `rise` seconds and back, sampled every 10 ms.
    static func press(_ number: Int, peak: Double, rise: Double = 0.5, outcome: PressOutcome = .undecided,
                      levels: [SourcedLevels] = [SourcedLevels(.configured, configured)]) -> PlottedPress {
        let steps = Int(rise / 0.01)
        let up = (0...steps).map { ForcePoint(time: Double($0) * 0.01, force: peak * Double($0) / Double(steps)) }
        let down = (1...steps).map { ForcePoint(time: rise + Double($0) * 0.01, force: peak * Double(steps - $0) / Double(steps)) }
        return PlottedPress(number: number, device: pen.id, deviceName: pen.name, contact: 0, start: Double(number) * 3,
                            samples: up + down, outcome: outcome, levels: levels)
    }

    @Test("one panel a contact, three to a row, none overlapping, all inside the picture")
    func smallMultiples() {
        let presses = (1...6).map { Self.press($0, peak: 0.1 * Double($0)) }
        let layout = PlotLayout(presses: presses, title: "six")
        #expect(layout.panels.count == 6)
        #expect(layout.panels.map(\.press.number) == [1, 2, 3, 4, 5, 6])
        #expect(Set(layout.panels.map(\.plot.x)).count == 3, "three columns")
        #expect(Set(layout.panels.map(\.plot.y)).count == 2, "two rows")
        for (index, panel) in layout.panels.enumerated() {
            #expect(panel.plot.x >= 0 && panel.plot.maxX <= Double(layout.width))
            #expect(panel.plot.y >= 0 && panel.plot.maxY <= Double(layout.height))
            for other in layout.panels[(index + 1)...] {
                let apart = panel.plot.maxX < other.plot.x || other.plot.maxX < panel.plot.x
                    || panel.plot.maxY < other.plot.y || other.plot.maxY < panel.plot.y
                #expect(apart, "panels \(panel.press.number) and \(other.press.number) overlap")
            }
        }
        #expect(layout.texts.contains { $0.text.contains("6 contacts") })
    }

    @Test("many contacts: the twelve that pressed hardest, in the order they happened")
    func hardestOfMany() {
        let peaks = (0..<40).map { 0.1 + 0.02 * Double(($0 * 17) % 40) }
        let presses = peaks.enumerated().map { Self.press($0.offset + 1, peak: $0.element) }
        let layout = PlotLayout(presses: presses, title: "forty")
        #expect(layout.contacts == 40)
        #expect(layout.panels.count == PlotLayout.maximumPanels)
        let shown = layout.panels.map(\.press.number)
        #expect(shown == shown.sorted())
        let lowestShown = layout.panels.map(\.press.peak).min() ?? 0
        let hidden = presses.filter { !shown.contains($0.number) }
        #expect(hidden.allSatisfy { $0.peak <= lowestShown })
        #expect(layout.texts.contains { $0.text.contains("40 contacts; the 12 that pressed hardest") })
    }

    @Test("the levels' lines at their rows: configured, and learned where learning moved them")
    func levelLines() throws {
        let learned = PressLevels(threshold: 0.4, release: 0.286, ordinary: 0.2)
        let press = Self.press(1, peak: 0.9, levels: [SourcedLevels(.configured, Self.configured), SourcedLevels(.learned, learned)])
        let panel = try #require(PlotLayout(presses: [press], title: "").panels.first)
        #expect(panel.levels.count == 6)
        for mark in panel.levels {
            let expected = panel.plot.maxY - panel.plot.height * mark.value
            #expect(abs(mark.y - expected) <= 1, "\(mark.kind) \(mark.source) at \(mark.y), not \(expected)")
        }
        let threshold = try #require(panel.levels.first { $0.kind == .threshold && $0.source == .configured })
        let learnedThreshold = try #require(panel.levels.first { $0.kind == .threshold && $0.source == .learned })
        #expect(threshold.value == 0.7 && learnedThreshold.value == 0.4)
        #expect(learnedThreshold.y > threshold.y, "a lower level is drawn lower")
        #expect(learnedThreshold.width > threshold.width, "the learned line, the one in force, is the stronger")
    }

    @Test("a claimed press: held from touch-down to the claim, a diamond on its curve there")
    func claimedMarker() throws {
        let press = Self.press(1, peak: 1, rise: 1, outcome: .claimed(gesture: "right-click", after: 0.7))
        let panel = try #require(PlotLayout(presses: [press], title: "").panels.first)
        let marker = try #require(panel.marker)
        #expect(marker.kind == .claimed)
        #expect(abs(marker.center.x - panel.x(time: 0.7)) < 0.001)
        #expect(abs(marker.center.y - panel.y(force: press.force(at: 0.7))) < 0.001)
        #expect(abs(press.force(at: 0.7) - 0.7) < 0.011)
        let held = try #require(panel.held)
        #expect(held.x == panel.plot.x && abs(held.maxX - marker.center.x) < 0.001)
        #expect(panel.title.map(\.text).contains("claimed by right-click after 0.70 s"))
    }

    @Test("a press handed over says why, and the legend names only what is shown")
    func handedOverMarker() throws {
        let handed = Self.press(1, peak: 0.3, outcome: .handedOver(.levelledOff, after: 0.21))
        let layout = PlotLayout(presses: [handed], title: "")
        let panel = try #require(layout.panels.first)
        #expect(panel.marker?.kind == .handedOver)
        #expect(panel.marker?.label == "handed over")
        #expect(panel.title.map(\.text).contains("handed over after 0.21 s: force levelled off"))
        let samples = layout.legend.map(\.sample)
        #expect(samples.contains(.marker(.handedOver)))
        #expect(!samples.contains(.marker(.claimed)))
        #expect(!samples.contains(.level(.threshold, .learned)))
        #expect(samples.contains(.level(.threshold, .configured)))
        #expect(samples.contains(.band))
        for item in layout.legend {
            #expect(item.frame.maxX <= Double(layout.width) && item.frame.maxY <= Double(layout.height))
        }
    }

    @Test("calibrate's session: each contact with its step, the proposed lines beside the configured ones")
    func calibration() throws {
        let configuration = try ConfigLoader.parse(DefaultConfig.text, file: "default")
        var history = PressHistory(devices: [Self.pen], configuration: configuration)
        for (index, peak) in [0.2, 0.9].enumerated() {
            let start = Double(index)
            for (offset, phase) in [ContactPhase.begin, .move, .end].enumerated() {
                history.add(ContactEvent(time: start + 0.1 * Double(offset), device: Self.pen.id, contact: 0, phase: phase,
                                         position: Point(x: 0, y: 0), pressure: phase == .move ? peak * 1000 : 50))
            }
            history.groupLastLifted(index == 0 ? "ordinary" : "hard")
        }
        let proposed = PressLevels(threshold: 0.55, release: 0.4, ordinary: 0.25)
        history.addLevels(SourcedLevels(.proposed, proposed), device: Self.pen.id)
        let layout = PlotLayout(presses: history.presses, title: "calibrate")
        #expect(layout.panels.map { $0.title[0].text } == ["#1  peak 0.20  at 0.0 s  (ordinary)", "#2  peak 0.90  at 1.0 s  (hard)"])
        #expect(layout.panels.allSatisfy { $0.marker == nil && $0.held == nil })
        #expect(layout.panels.allSatisfy { $0.title[1].text == "listened to only (calibrating)" })
        let threshold = try #require(layout.panels.first?.levels.first { $0.kind == .threshold && $0.source == .proposed })
        #expect(threshold.value == 0.55)
        #expect(layout.legend.map(\.label).contains("threshold (proposed)"))
    }

    @Test("a contact of 100,000 samples: at most four points a pixel column, its peak kept")
    func longContact() throws {
        let samples = (0..<100_000).map { ForcePoint(time: Double($0) * 0.001, force: $0 == 61_234 ? 0.97 : 0.3 + 0.1 * sin(Double($0) / 500)) }
        let press = PlottedPress(number: 1, device: Self.pen.id, deviceName: Self.pen.name, contact: 0, start: 0, samples: samples)
        let panel = try #require(PlotLayout(presses: [press], title: "").panels.first)
        #expect(panel.curve.count <= 4 * (Int(panel.plot.width) + 1))
        #expect(abs((panel.curve.map(\.y).min() ?? 0) - panel.y(force: 0.97)) < 0.001, "the peak still shows")
        #expect(zip(panel.curve, panel.curve.dropFirst()).allSatisfy { $0.x <= $1.x }, "in time order")
    }

    @Test("no contacts: a picture that says so, no panel, no legend")
    func empty() {
        let layout = PlotLayout(presses: [], title: "empty")
        #expect(layout.panels.isEmpty && layout.legend.isEmpty)
        #expect(layout.texts.map(\.text).contains("no contacts with pressure"))
        #expect(layout.width > 0 && layout.height > 0)
    }

    @Test("time ticks: at most six, from 0 past the contact's end")
    func timeTicks() {
        for duration in [0.004, 0.08, 0.3, 1.2, 6.2, 45, 700] {
            let (step, span) = PlotLayout.timeScale(duration)
            #expect(span >= duration)
            #expect(span / step <= 5.0001, "\(duration): \(step) × \(span / step)")
        }
    }

    @Test("the colours tell kinds apart in grey too")
    func greyscale() {
        let style = PlotStyle.standard
        let background = style.color(.background).luma
        // The claimed and handed-over markers differ in shape and in brightness.
        #expect(abs(style.color(.marker(.claimed)).luma - style.color(.marker(.handedOver)).luma) > 30)
        // A configured level is paler than the learned one of the same kind, and every line
        // still stands out from the white ground.
        for kind in LevelKind.allCases {
            let configured = style.color(.level(kind, .configured)).luma
            let learned = style.color(.level(kind, .learned)).luma
            #expect(configured > learned + 20)
            #expect(background - configured > 25)
        }
        #expect(Set(LevelKind.allCases.map(style.dashes)).count == 3, "each level its own dash")
        #expect(background - style.color(.held).luma > 25)
    }
}

/// How the history follows contacts through the engine's outputs.
@Suite("Press plot: history")
struct PressHistoryTests {
    static let pen = PlotLayoutTests.pen

    static func event(_ time: Double, _ phase: ContactPhase, _ pressure: Double, contact: Int = 0) -> ContactEvent {
        ContactEvent(time: time, device: pen.id, contact: contact, phase: phase, position: Point(x: 10, y: 10), pressure: pressure)
    }

    @Test("samples from touch-down, the decision that came with the lift, and learned levels from the next contact on")
    func follows() throws {
        let configuration = try ConfigLoader.parse(DefaultConfig.text, file: "default")
        var history = PressHistory(devices: [Self.pen], configuration: configuration)
        let key = ContactKey(device: Self.pen.id, contact: 0)
        history.add(Self.event(1.0, .begin, 100))
        history.add(Self.event(1.1, .move, 300))
        history.add(Self.event(1.2, .end, 300))
        history.add(.decision(.release(key, reason: .ended, time: 1.2, held: 0.2)))
        let moved = PressLevels(threshold: 0.5, release: 0.357, ordinary: 0.25)
        history.add(.learned(LearnedChange(time: 1.2, device: Self.pen.name, previous: .start, levels: moved, learner: HandLearner())))
        history.add(Self.event(2.0, .begin, 100))
        history.add(.decision(.claim(key, gesture: "right-click", time: 2.0, held: 0)))
        history.add(Self.event(2.1, .end, 100))
        #expect(history.presses.count == 2)
        let first = try #require(history.presses.first)
        #expect(zip(first.samples.map(\.time), [0, 0.1, 0.2]).allSatisfy { abs($0 - $1) < 1e-9 } && first.samples.count == 3)
        #expect(first.peak == 0.3)
        #expect(first.outcome == .handedOver(.ended, after: 0.2))
        #expect(first.levels == [SourcedLevels(.configured, .start)])
        let second = try #require(history.presses.last)
        #expect(second.outcome == .claimed(gesture: "right-click", after: 0))
        #expect(second.levels == [SourcedLevels(.configured, .start), SourcedLevels(.learned, moved)])
    }

    @Test("a threshold stated as a number does not learn: no learned line")
    func fixedThreshold() throws {
        let configuration = try ConfigLoader.parse("bindings:\n  - {name: deep, gesture: deep-press, threshold: 0.6}\n", file: "fixed")
        var history = PressHistory(devices: [Self.pen], configuration: configuration)
        let moved = PressLevels(threshold: 0.5, release: 0.357, ordinary: 0.25)
        history.add(.learned(LearnedChange(time: 0, device: Self.pen.name, previous: .start, levels: moved, learner: HandLearner())))
        history.add(Self.event(1.0, .begin, 100))
        #expect(history.presses.first?.levels.map(\.source) == [.configured])
        #expect(history.presses.first?.levels.first?.levels.threshold == 0.6)
    }

    @Test("the levels drawn are the deep press the engine gives the device: one naming it before one for its kind, not one for some programs only")
    func levelsOfTheDeepPressUsed() throws {
        let named = try ConfigLoader.parse("""
            bindings:
              - {name: pens, gesture: deep-press, devices: [pen], threshold: 0.7}
              - {name: mine, gesture: deep-press, devices: [{name: "Test Pen stylus"}], threshold: 0.45}
            """, file: "named.yaml")
        #expect(PressHistory.deepPress(in: named, for: Self.pen)?.levels.threshold == 0.45)
        let appOnly = try ConfigLoader.parse("""
            bindings:
              - {name: krita, gesture: deep-press, devices: [pen], threshold: 0.9, applications: {only: [krita]}}
              - {name: everywhere, gesture: deep-press, devices: [pen], threshold: 0.45}
            """, file: "only.yaml")
        #expect(PressHistory.deepPress(in: appOnly, for: Self.pen)?.levels.threshold == 0.45)
    }
}
