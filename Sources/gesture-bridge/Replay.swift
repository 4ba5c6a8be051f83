import ArgumentParser
import GestureKit
import PressPlot
import X11Bridge

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a recorded trace through the gesture engine and print the gestures and actions.",
        discussion: """
            The engine is the one `run` uses live, with the trace's timestamps as its clock, so a \
            trace recorded with `record` replays to the gestures and actions the live bridge saw. \
            Use it to try a config on a recording before you run it. Without --config it runs \
            the config `run` would use. It decides as the live bridge did given the same config, \
            the same learned levels (`threshold: learned` starts from nothing here: give \
            --state with each device's file `run` kept, in ~/.local/state/gesture-bridge/), \
            no binding limited to some applications (a trace keeps no windows: `except` \
            always applies, `only` never), no other program's grab (a menu's, a screen \
            locker's) having the presses, every device listened to recorded (not `record \
            --device`: a pen hovering makes a finger's press a palm's), a desktop at scale 1 with \
            no device mapped to part of the screen, and no device gone within 0.3 s of a lift \
            (docs/trace-format.md says why). A trace without a `screen` in its header (one written by \
            hand) replays as on a 1920x1080 screen: a knob placed by the screen's corners or \
            edges, and a device's mapped area, are placed on that.

            Examples:
              gesture-bridge replay session.jsonl
              gesture-bridge replay session.jsonl --config my-config.yaml --json
              gesture-bridge replay session.jsonl --plot presses.png
              gesture-bridge replay session.jsonl --state pen.learned --state eraser.learned
            """
    )

    @Argument(help: ArgumentHelp("The trace to replay (JSON Lines, as `record` writes).", valueName: "trace"), completion: .file())
    var trace: String

    @OptionGroup var config: ConfigOption

    @Flag(help: "One JSON object per line, in the trace-format contract, instead of readable columns.")
    var json = false

    @Option(help: ArgumentHelp("Start learning from this learned-state file (a `.learned` file `run` kept) instead of from nothing; once for each device of the trace that learned, `--state` before each file. The user's own learned state is never read nor written.", valueName: "file"), completion: .file(extensions: ["learned"]))
    var state: [String] = []

    @Option(help: ArgumentHelp(PressPicture.help, valueName: "file.png"), completion: .file(extensions: ["png"]))
    var plot: String?

    func validate() throws {
        try PressPicture.validate(plot, reads: [trace] + state + config.readFile)
    }

    func run() throws {
        let (configuration, _) = try config.load()
        var learning = PressLearning()
        var stateNames: [(file: String, name: String)] = []
        for file in state {
            do {
                guard let (device, learner) = try LearnedStateStore.loadFile(file) else {
                    throw CommandFailure("error: \(file) is not a learned-state file")
                }
                // A trace names its devices without vendor and product ids: the state applies to
                // the device of its name.
                let name = LearningKey.name(of: device)
                if let earlier = stateNames.first(where: { $0.name == name }) {
                    throw CommandFailure("error: \(file) and \(earlier.file) are both the learned state of \"\(name)\"; give one")
                }
                learning.devices[name] = learner
                stateNames.append((file, name))
            } catch let error as LearnedStateError {
                throw CommandFailure("error: \(error.description)")
            }
        }
        let recording = try openTrace(path: trace)
        for (file, name) in stateNames where !recording.header.devices.contains(where: { $0.name == name }) {
            // Drivers name one pen differently ("... Pen stylus" under wacom, "... Pen (0x...)" under
            // libinput): a state under another name would silently leave the replay learning from nothing.
            let names = recording.header.devices.map { "\"\($0.name)\"" }.joined(separator: ", ")
            printError("warning: \(file) is the learned state of \"\(name)\", and no device of the trace has that name (\(names.isEmpty ? "none" : names)): the replay learns from nothing for it")
        }
        var replayer = TraceReplayer(header: recording.header, configuration: configuration, learning: learning)
        var pictured = plot.map { _ in PressHistory(devices: recording.header.devices, configuration: configuration, learning: learning) }
        let formatter = OutputFormatter(style: json ? .json : .human, devices: recording.header.devices)
        var outputs: [EngineOutput] = []
        var events = 0, gestures = 0, actions = 0
        // Lines go out in 64 KiB writes rather than one print each.
        var pending = ""
        let output = LineWriter.standardOutput
        func flush() {
            guard !pending.isEmpty else { return }
            output.write(text: pending)
            pending = ""
        }
        // Each event's outputs go out as they come: a line the trace gets wrong stops the
        // replay there, with its error, after the gestures before it.
        func report() {
            for output in outputs {
                if let line = formatter.line(for: output) {
                    pending += line
                    pending += "\n"
                }
                switch output {
                case .gesture(let event) where event.report.state.isSuccess: gestures += 1
                case .action: actions += 1
                case .bug(let message):
                    flush()
                    printError("\(recording.file):\(recording.lineNumber): warning: \(message)")
                default: break
                }
            }
            outputs.removeAll(keepingCapacity: true)
            if pending.utf8.count >= 1 << 16 { flush() }
        }
        while true {
            let next: ContactEvent?
            do {
                next = try recording.next()
            } catch {
                flush()
                throw CommandFailure(error.description)
            }
            guard let event = next else { break }
            events += 1
            pictured?.add(event)
            replayer.handle(event, into: &outputs)
            pictured?.add(outputs)
            report()
        }
        replayer.finish(into: &outputs)
        pictured?.add(outputs)
        report()
        if !json {
            pending += "\(events) events, \(gestures) gestures began or recognized, \(actions) actions\n"
        }
        flush()
        if let plot, let pictured {
            try PressPicture.save(pictured.presses, title: "gesture-bridge replay \(PressPicture.name(trace))", to: plot)
        }
        if let failure = output.failure {
            throw CommandFailure.output(failure)
        }
    }
}
