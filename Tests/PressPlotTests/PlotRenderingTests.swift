import Foundation
import GestureKit
import Testing
@testable import PressPlot

/// The picture of the real iPhone recording, drawn to a PNG file and read back pixel by pixel:
/// what a person opening the file sees.
@Suite("Press plot: the PNG of the iPhone recording")
struct PlotRenderingTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../GestureKitTests/Fixtures/ios-3dtouch-force-60s.jsonl").standardized.path

    /// The recording replayed with `config` (the built-in default when nil), drawn and written
    /// to a temporary PNG, and read back.
    static func render(config: String? = nil, learning: PressLearning = PressLearning()) throws -> (PlotLayout, PNGPixels) {
        let trace = try TraceReader.load(path: fixture)
        let configuration = try ConfigLoader.parse(config ?? DefaultConfig.text, file: "test")
        let history = PressReplay.of(trace, configuration: configuration, learning: learning)
        let layout = PlotLayout(presses: history.presses, title: "replay ios-3dtouch-force-60s.jsonl")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("press-plot-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try PlotRenderer.write(layout, to: path)
        let pixels = try #require(PNGPixels(path: path), "the file is a PNG")
        #expect(pixels.width == layout.width && pixels.height == layout.height)
        return (layout, pixels)
    }

    @Test("six panels, the threshold's line at 0.7 on each, and each press's claim a green diamond")
    func defaultConfig() throws {
        let (layout, pixels) = try Self.render()
        let style = layout.style
        #expect(layout.panels.count == 6)
        let claimed = style.color(.marker(.claimed))
        for panel in layout.panels {
            let threshold = try #require(panel.levels.first { $0.kind == .threshold && $0.source == .configured })
            #expect(threshold.value == 0.7)
            // Near the panel's left edge, before the force has risen that far.
            let x = Int(panel.plot.x) + 4
            #expect(pixels[x, threshold.row] == style.color(.level(.threshold, .configured)),
                    "panel \(panel.press.number): \(String(describing: pixels[x, threshold.row])) at row \(threshold.row)")
            #expect(pixels[x, threshold.row - 3] != style.color(.level(.threshold, .configured)), "a line, not a band")
            let marker = try #require(panel.marker, "press \(panel.press.number) was decided")
            #expect(marker.kind == .claimed)
            #expect(pixels[Int(marker.center.x), Int(marker.center.y)] == claimed)
            // Held back from touch-down to the claim: the band's grey just before it, white after.
            let below = Int(panel.y(force: 0.05))
            #expect(pixels[Int(marker.center.x) - 10, Int(panel.plot.y) + 2] == style.color(.held))
            #expect(pixels[Int(panel.plot.maxX) - 2, below] != style.color(.held) || marker.center.x > panel.plot.maxX - 3)
        }
        // One green diamond a panel, and one in the legend: six panels drawn, no more.
        let diamonds = pixels.patches(of: claimed).filter { $0 >= 20 }
        #expect(diamonds.count == 7, "\(diamonds)")
        #expect(pixels.patches(of: style.color(.marker(.handedOver))).isEmpty)
    }

    @Test("a hold limit of 2 s: the slow presses handed over at the limit, a purple circle each")
    func handedOver() throws {
        let config = """
            hold-limit: 2
            bindings:
              - {name: right-click, gesture: deep-press, threshold: 0.7, action: {click: right}}
            """
        let (layout, pixels) = try Self.render(config: config)
        let style = layout.style
        let handed = layout.panels.filter { $0.marker?.kind == .handedOver }
        let claimed = layout.panels.filter { $0.marker?.kind == .claimed }
        #expect(!handed.isEmpty && !claimed.isEmpty, "\(layout.panels.map(\.title))")
        for panel in handed {
            let marker = try #require(panel.marker)
            #expect(abs((panel.press.outcome.held ?? 0) - 2) < 0.05)
            #expect(pixels[Int(marker.center.x), Int(marker.center.y)] == style.color(.marker(.handedOver)))
            #expect(panel.title.map(\.text).contains { $0.hasSuffix(": hold limit") })
        }
        for panel in claimed {
            let marker = try #require(panel.marker)
            #expect(pixels[Int(marker.center.x), Int(marker.center.y)] == style.color(.marker(.claimed)))
        }
    }

    @Test("levels learned before: the learned threshold's line in full colour, the configured one paler above it")
    func learnedLines() throws {
        let levels = PressLevels(threshold: 0.5, release: 0.357, ordinary: 0.25)
        let learner = try #require(HandLearner(ordinaryPeaks: Array(repeating: 0.2, count: 12), deliberatePeaks: [],
                                               ordinaryContacts: 12, deliberatePresses: 0, levels: levels, moving: false,
                                               calibrated: false))
        let trace = try TraceReader.load(path: Self.fixture)
        let name = try #require(trace.header.devices.first?.name)
        let (layout, pixels) = try Self.render(learning: PressLearning(devices: [name: learner]))
        let style = layout.style
        for panel in layout.panels {
            let learned = try #require(panel.levels.first { $0.kind == .threshold && $0.source == .learned })
            let configured = try #require(panel.levels.first { $0.kind == .threshold && $0.source == .configured })
            #expect(learned.value == 0.5 && configured.value == 0.7)
            let x = Int(panel.plot.x) + 4
            #expect(pixels[x, learned.row] == style.color(.level(.threshold, .learned)))
            #expect(pixels[x, configured.row] == style.color(.level(.threshold, .configured)))
            // The engine used the learned level: each claim is where the force reached 0.5.
            let marker = try #require(panel.marker)
            #expect(abs(marker.center.y - panel.y(force: 0.5)) < panel.plot.height * 0.05)
        }
    }

    @Test("an unwritable path: an error that names it, no file")
    func unwritable() throws {
        let layout = PlotLayout(presses: [], title: "nothing")
        let path = "/nonexistent-directory-\(UUID().uuidString)/plot.png"
        #expect {
            try PlotRenderer.write(layout, to: path)
        } throws: { error in
            "\(error)".contains(path) && "\(error)".contains("No such file or directory")
        }
    }
}
