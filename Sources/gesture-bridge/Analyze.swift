import ArgumentParser
import GestureKit

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show each device's pressure in a trace, and suggest a deep-press threshold.",
        discussion: """
            For every device: how many samples and contacts, how many distinct pressure levels \
            it reports, the lowest and highest pressure, a histogram of the normalized force, \
            and the force the contacts peaked at (percentiles and a histogram, the same few \
            lines for a minute's recording or an hour's).

            When the contact peaks fall into two groups with a clear gap between them (your \
            ordinary taps and strokes, and your deliberate hard presses), it suggests a \
            threshold in the gap, a release and an `ordinary` level, and prints a binding for \
            that device to paste into your config. When there is no such gap it says so: \
            record both kinds of contact, or let `gesture-bridge calibrate` guide you.

            Examples:
              gesture-bridge record -o pen.jsonl --seconds 60
              gesture-bridge analyze pen.jsonl
              gesture-bridge analyze pen.jsonl --json
            """
    )

    @Argument(help: ArgumentHelp("The trace to analyze.", valueName: "trace"))
    var trace: String

    @Flag(help: "One JSON object per device, with the same numbers, instead of readable text.")
    var json = false

    func run() throws {
        let recording = try loadTrace(path: trace)
        for stats in PressureStatistics.analyze(recording) {
            print(json ? Self.json(stats) : Self.describe(stats))
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
        lines.append("  force histogram (samples)")
        lines += histogram(stats.histogram)
        let peaks = stats.peaks
        guard !peaks.percentiles.isEmpty else {
            lines.append("  contact peaks    (no contacts)")
            return lines.joined(separator: "\n")
        }
        let percentiles = zip(PeakSummary.percentileNames, peaks.percentiles).map { "\($0) \(fixed($1))" }
        lines.append("  contact peaks    \(percentiles.joined(separator: ", "))")
        lines.append("  peak histogram (contacts)")
        lines += histogram(peaks.histogram)
        lines += suggestion(stats)
        return lines.joined(separator: "\n")
    }

    private static func histogram(_ counts: [Int]) -> [String] {
        let largest = max(1, counts.max() ?? 1)
        return counts.enumerated().map { bin, count in
            let low = Double(bin) / Double(counts.count)
            let high = Double(bin + 1) / Double(counts.count)
            let bar = String(repeating: "#", count: (count * 40 + largest - 1) / largest)
            let countText = String(count)
            let line = "    \(fixed(low, 1))-\(fixed(high, 1))  \(String(repeating: " ", count: max(0, 6 - countText.count)))\(countText)  \(bar)"
            return bar.isEmpty ? String(line.dropLast(2)) : line
        }
    }

    private static func suggestion(_ stats: PressureStatistics) -> [String] {
        guard let suggestion = stats.suggestion else {
            let peaks = stats.contactPeaks.filter(\.isFinite)
            let spread = "\(fixed(peaks.min() ?? 0)) and \(fixed(peaks.max() ?? 0))"
            return ["  suggestion       none: no gap of \(fixed(ThresholdSuggestion.smallestUsefulMargin, 1)) between ordinary and hard contacts (the peaks lie between \(spread))",
                    "                   record some ordinary strokes and some deliberate hard presses, or run `gesture-bridge calibrate`"]
        }
        let (ordinary, hard) = groups(stats.contactPeaks, suggestion)
        return [
            "  suggestion       threshold \(suggestion.threshold.formatted), release \(suggestion.release.formatted), ordinary \(suggestion.ordinary.formatted)",
            "                   ordinary contacts: \(ordinary.count), peaks \(fixed(ordinary.min() ?? 0)) .. \(fixed(ordinary.max() ?? 0)); hard presses: \(hard.count), peaks \(fixed(hard.min() ?? 0)) .. \(fixed(hard.max() ?? 0)); margin \(fixed(suggestion.margin))",
            "  a binding for this device, to put first under `bindings:` in your config:",
            suggestion.binding(forDevice: stats.device.name).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"),
        ]
    }

    /// The contacts on each side of the suggested threshold.
    private static func groups(_ peaks: [Double], _ suggestion: ThresholdSuggestion) -> (ordinary: [Double], hard: [Double]) {
        let finite = peaks.filter(\.isFinite)
        return (finite.filter { $0 < suggestion.threshold }, finite.filter { $0 >= suggestion.threshold })
    }

    static func json(_ stats: PressureStatistics) -> String {
        let device = stats.device
        var line = JSONLine()
        line.add("device", device.id)
        line.add("name", device.name)
        line.add("kind", device.kind.rawValue)
        line.add("pressure", device.pressure)
        line.add("samples", stats.samples)
        line.add("contacts", stats.contacts)
        line.add("distinctLevels", stats.distinctLevels)
        line.addRaw("minimum", stats.minimum.map(JSONLine.number) ?? "null")
        line.addRaw("maximum", stats.maximum.map(JSONLine.number) ?? "null")
        line.addRaw("forceHistogram", "[" + stats.histogram.map(String.init).joined(separator: ",") + "]")
        let peaks = stats.peaks
        var summary = JSONLine()
        summary.add("count", peaks.count)
        for (name, value) in zip(PeakSummary.percentileNames, peaks.percentiles) { summary.add(name, value) }
        summary.addRaw("histogram", "[" + peaks.histogram.map(String.init).joined(separator: ",") + "]")
        line.addRaw("peaks", summary.string)
        if device.pressure != nil, let suggestion = stats.suggestion {
            let (ordinary, hard) = groups(stats.contactPeaks, suggestion)
            var object = JSONLine()
            object.add("threshold", suggestion.threshold)
            object.add("release", suggestion.release)
            object.add("ordinary", suggestion.ordinary)
            object.add("ordinaryPeak", suggestion.ordinaryPeak)
            object.add("hardPeak", suggestion.hardPeak)
            object.add("margin", suggestion.margin)
            object.add("ordinaryContacts", ordinary.count)
            object.add("hardContacts", hard.count)
            object.add("binding", suggestion.binding(forDevice: device.name))
            line.addRaw("suggestion", object.string)
        } else {
            line.addRaw("suggestion", "null")
        }
        return line.string
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
