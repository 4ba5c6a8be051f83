import Foundation

/// The failures file: for each failed episode, its plan (JSON that `--plan` plays), what went
/// wrong with what the window got, and the bridge's output and log.
public enum ChaosReport {
    public static func write(_ outcomes: [ChaosOutcome], to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var text = "# \(outcomes.count) failed episode\(outcomes.count == 1 ? "" : "s")\n"
        text += "# every plan: \(String(decoding: try encoder.encode(outcomes.map(\.episode)), as: UTF8.self))\n\n"
        for outcome in outcomes {
            text += "## \(outcome.episode.name)\(outcome.episode.busy ? " (busy machine)" : "")\n"
            text += "plan: \(String(decoding: try encoder.encode([outcome.episode]), as: UTF8.self))\n"
            for (index, step) in outcome.episode.steps.enumerated() { text += "  step \(index + 1): \(step)\n" }
            for failure in outcome.failures {
                text += "FAILED: \(failure)\n"
                for event in failure.windowEvents { text += "    window: \(event)\n" }
            }
            text += "window, the whole episode:\n" + outcome.windowLog.map { "    \($0)\n" }.joined()
            text += "bridge output:\n" + outcome.bridgeOutput.map { "    \($0)\n" }.joined()
            text += "bridge log:\n" + outcome.bridgeLog.split(separator: "\n").map { "    \($0)\n" }.joined() + "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
