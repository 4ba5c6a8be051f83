import ArgumentParser
import GestureKit

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a recorded trace through the gesture engine and print the gestures and actions.",
        discussion: """
            The engine is the one `run` uses live, with the trace's timestamps as its clock, so a \
            trace recorded with `record` replays to the gestures and actions the live bridge saw. \
            Use it to try a config on a recording before you run it. Without --config it runs \
            the config `run` would use.

            Examples:
              gesture-bridge replay session.jsonl
              gesture-bridge replay session.jsonl --config my-config.yaml --json
            """
    )

    @Argument(help: ArgumentHelp("The trace to replay (JSON Lines, as `record` writes).", valueName: "trace"))
    var trace: String

    @OptionGroup var config: ConfigOption

    @Flag(help: "One JSON object per line, in the trace-format contract, instead of readable columns.")
    var json = false

    func run() throws {
        let (configuration, _) = try config.load()
        let recording = try loadTrace(path: trace)
        let outputs = TraceReplay.run(recording, configuration: configuration)
        let formatter = OutputFormatter(style: json ? .json : .human, devices: recording.header.devices)
        for output in outputs {
            if let line = formatter.line(for: output) { print(line) }
            if case .bug(let message) = output { printError("warning: \(message)") }
        }
        if !json {
            let gestures = outputs.filter { if case .gesture(let event) = $0 { return event.report.state.isSuccess } else { return false } }.count
            let actions = outputs.filter { if case .action = $0 { return true } else { return false } }.count
            print("\(recording.events.count) events, \(gestures) gestures began or recognized, \(actions) actions")
        }
    }
}
