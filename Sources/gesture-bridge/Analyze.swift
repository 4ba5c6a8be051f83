import ArgumentParser
import GestureKit

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show each device's pressure in a trace: the numbers to choose thresholds by.",
        discussion: """
            For every device: how many samples and contacts, how many distinct pressure levels \
            it reports, the lowest and highest pressure, a histogram of the normalized force, \
            and the force each contact peaked at. A deep-press threshold belongs a little below \
            the peaks of your deliberate hard presses and well above those of ordinary strokes.

            Example:
              gesture-bridge record -o pen.jsonl --seconds 30
              gesture-bridge analyze pen.jsonl
            """
    )

    @Argument(help: ArgumentHelp("The trace to analyze.", valueName: "trace"))
    var trace: String

    func run() throws {
        let recording = try loadTrace(path: trace)
        for stats in PressureStatistics.analyze(recording) {
            print(Self.describe(stats))
        }
    }

    static func describe(_ stats: PressureStatistics) -> String {
        let device = stats.device
        var lines: [String] = []
        let range = device.pressure.map { "pressure \($0.min.formatted)..\($0.max.formatted)" } ?? "no pressure axis"
        lines.append("device \(device.id) \"\(device.name)\" (\(device.kind.rawValue)), \(range)")
        lines.append("  samples          \(stats.samples)")
        lines.append("  contacts         \(stats.contacts)")
        guard let pressure = device.pressure else {
            lines.append("  (pressure gestures never begin on this device; long press and knob still work)")
            return lines.joined(separator: "\n")
        }
        lines.append("  distinct levels  \(stats.distinctLevels)")
        if let low = stats.minimum, let high = stats.maximum {
            lines.append("  pressure         \(low.formatted) .. \(high.formatted)   (force \(fixed(pressure.normalize(low))) .. \(fixed(pressure.normalize(high))))")
        }
        lines.append("  force histogram")
        let largest = max(1, stats.histogram.max() ?? 1)
        for (bin, count) in stats.histogram.enumerated() {
            let low = Double(bin) / Double(PressureStatistics.bins)
            let high = Double(bin + 1) / Double(PressureStatistics.bins)
            let bar = String(repeating: "#", count: (count * 40 + largest - 1) / largest)
            let countText = String(count)
            lines.append("    \(fixed(low, 1))-\(fixed(high, 1))  \(String(repeating: " ", count: max(0, 6 - countText.count)))\(countText)  \(bar)")
        }
        let peaks = stats.contactPeaks.map { fixed($0) }.joined(separator: " ")
        lines.append("  contact peaks    \(peaks.isEmpty ? "(no contacts)" : peaks)")
        return lines.joined(separator: "\n")
    }

    static func fixed(_ value: Double, _ digits: Int = 3) -> String {
        let scale = digits == 1 ? 10.0 : 1000.0
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        }
        return text
    }
}
