import ArgumentParser
import GestureKit
import PressPlot

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show each device's pressure in a trace, and suggest a deep-press threshold.",
        discussion: """
            For every device: how many samples and contacts, how many distinct pressure levels \
            it reports, the lowest and highest pressure, a histogram of the normalized force \
            (0 to 1 over the device's pressure range), and the force each contact peaked at, \
            as percentiles and a histogram: the same few lines for a minute's recording or an \
            hour's.

            To choose a deep-press threshold, record one session with both kinds of contact: \
            a dozen or more of your ordinary taps and strokes, the way you usually write or \
            draw, and several deliberate hard presses. When the contact peaks fall into two \
            groups with a gap of 0.1 or more between them, analyze splits them at the widest \
            gap and, from at least 5 ordinary contacts and 3 hard presses, suggests:
              threshold  halfway from the force 90% of ordinary contacts stay under to
                         the force 90% of hard presses reach, so one stray firm tap or
                         light hard press does not move it;
              release    halfway between the ordinary contacts and the threshold: a
                         deep press ends once the force is back among ordinary ones;
              ordinary   a little above the hardest ordinary contact, and at least half
                         the threshold: a still press that levels off there is handed to
                         the application at once.
            It shows how many contacts fall on each side, their peaks and the margin between \
            the groups (the wider, the fewer mistakes), and prints a deep-press binding for \
            that device, keeping what your config's deep press says besides its levels (where \
            it applies, what it does, its slop and feedback; the config --config names, or \
            yours). Put it under `bindings:` in your config (a binding that names the device \
            takes its contacts from one for its kind, wherever it is listed), check it with \
            `gesture-bridge check`, and save: a running bridge reads it by itself. `replay` \
            the same recording with the new config to see what each contact would do.

            When there is no such gap (every contact pressed about as hard) it says so: record \
            both kinds of contact, or let `gesture-bridge calibrate` guide you through them.

            --json prints one object per device with the same numbers: the statistics, \
            "peaks" (count, min, p10, p25, median, p75, p90, max, histogram) and \
            "suggestion" (threshold, release, ordinary, ordinaryPeak, hardPeak, margin, \
            ordinaryContacts, hardContacts, binding), or null when there is none.

            Examples:
              gesture-bridge record -o pen.jsonl --seconds 60
              gesture-bridge analyze pen.jsonl
              gesture-bridge analyze pen.jsonl --json
              gesture-bridge analyze pen.jsonl --plot presses.png
              gesture-bridge replay pen.jsonl --config my-config.yaml
            """
    )

    @Argument(help: ArgumentHelp("The trace to analyze.", valueName: "trace"), completion: .file())
    var trace: String

    @Flag(help: "One JSON object per device, with the same numbers, instead of readable text.")
    var json = false

    @Option(help: ArgumentHelp(PressPicture.help + " The trace is replayed for it as `replay` does, with the config --config names.", valueName: "file.png"), completion: .file(extensions: ["png"]))
    var plot: String?

    @OptionGroup var config: ConfigOption

    func validate() throws {
        try PressPicture.validate(plot, reads: [trace] + config.readFile)
    }

    func run() throws {
        let recording = try openTrace(path: trace)
        var analysis = PressureAnalysis(header: recording.header)
        // The picture replays the trace with the config; the suggested binding keeps what the
        // config's deep press for the device says besides its levels (`suggestionBase`).
        let bindings = try config.suggestionBase()
        var pictured = plot.map { _ in PressReplay(header: recording.header, configuration: bindings) }
        // A line the trace gets wrong (the last one cut short by a recording stopped while it
        // wrote) stops the reading there: what came before it is analyzed and shown, as
        // `replay` shows the gestures before it, and then its error.
        var badLine: Error?
        do {
            while let event = try nextEvent(recording) {
                analysis.add(event)
                pictured?.handle(event)
            }
        } catch {
            badLine = error
        }
        if analysis.statistics.isEmpty && !json {
            print("\(trace): the trace lists no devices, so there is nothing to analyze")
        }
        for stats in analysis.statistics {
            let base = bindings.calibrationBase(for: stats.device)
            print(json ? Self.json(stats, basedOn: base) : Self.describe(stats, basedOn: base))
        }
        if let plot, var pictured {
            pictured.finish()
            let suggestions = analysis.statistics.compactMap { stats in
                stats.suggestion.map { "suggested for \(stats.device.name): threshold \($0.threshold.formatted), release \($0.release.formatted), ordinary \($0.ordinary.formatted)" }
            }
            try PressPicture.save(pictured.history.presses, title: "gesture-bridge analyze \(PressPicture.name(trace))",
                                  note: suggestions.isEmpty ? nil : suggestions.joined(separator: "; "), to: plot)
        }
        if let badLine { throw badLine }
    }

    static func describe(_ stats: PressureStatistics, basedOn base: Binding? = nil) -> String {
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
        lines += suggestion(stats, basedOn: base)
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

    private static func suggestion(_ stats: PressureStatistics, basedOn base: Binding?) -> [String] {
        let peaks = stats.contactPeaks.filter(\.isFinite)
        guard let suggestion = stats.suggestion else {
            let fewest = ThresholdSuggestion.fewestContacts
            if let (ordinary, hard) = ThresholdSuggestion.split(peaks: peaks) {
                return ["  suggestion       none: \(ordinary.count) ordinary \(ordinary.count == 1 ? "contact" : "contacts") (peaks \(range(ordinary))) and \(hard.count) hard \(hard.count == 1 ? "press" : "presses") (peaks \(range(hard))) are too few to place a threshold between",
                        "                   record at least \(fewest.ordinary) ordinary strokes and \(fewest.hard) deliberate hard presses (a dozen and several are better), or run `gesture-bridge calibrate`"]
            }
            let low = peaks.min() ?? 0, high = peaks.max() ?? 0
            let spread = low == high ? "every peak is \(fixed(low))" : "every peak lies between \(fixed(low)) and \(fixed(high))"
            return ["  suggestion       none: no gap of \(fixed(ThresholdSuggestion.smallestUsefulMargin, 1)) between ordinary and hard contacts: \(spread)",
                    "                   record some ordinary strokes and some deliberate hard presses, or run `gesture-bridge calibrate`"]
        }
        let (ordinary, hard) = groups(peaks, suggestion)
        return [
            "  suggestion       threshold \(suggestion.threshold.formatted), release \(suggestion.release.formatted), ordinary \(suggestion.ordinary.formatted)",
            "    ordinary       \(ordinary.count) contacts, peaks \(range(ordinary)), 90% at or under \(fixed(suggestion.ordinaryPeak))",
            "    hard           \(hard.count) contacts, peaks \(range(hard)), 90% at or over \(fixed(suggestion.hardPeak))",
            "    margin         \(fixed(suggestion.margin)) between those two",
            "  a binding for this device, to put first under `bindings:` in your config:",
            // As it pastes: under `bindings:`, beside the config's other items.
            suggestion.binding(forDevice: stats.device.name, basedOn: base).split(separator: "\n").joined(separator: "\n"),
        ]
    }

    private static func range(_ peaks: [Double]) -> String {
        "\(fixed(peaks.min() ?? 0)) .. \(fixed(peaks.max() ?? 0))"
    }

    /// The contacts on each side of the suggested threshold: what the binding would do with
    /// each contact of the recording, which is what a reader checks the suggestion against.
    private static func groups(_ peaks: [Double], _ suggestion: ThresholdSuggestion) -> (ordinary: [Double], hard: [Double]) {
        let finite = peaks.filter(\.isFinite)
        return (finite.filter { $0 < suggestion.threshold }, finite.filter { $0 >= suggestion.threshold })
    }

    static func json(_ stats: PressureStatistics, basedOn base: Binding? = nil) -> String {
        let suggestion = stats.suggestion.flatMap { suggestion -> AnalysisLine.Suggestion? in
            guard stats.device.pressure != nil else { return nil }
            let (ordinary, hard) = groups(stats.contactPeaks, suggestion)
            return AnalysisLine.Suggestion(suggestion, device: stats.device.name, ordinaryContacts: ordinary.count,
                                           hardContacts: hard.count, basedOn: base)
        }
        return JSONLineEncoder.line(AnalysisLine(stats, suggestion: suggestion))
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
