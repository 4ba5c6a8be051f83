import ArgumentParser
import GestureKit
import Glibc
import X11Bridge

@main
struct GestureBridgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gesture-bridge",
        abstract: "Pressure and knob gestures for X11: deep press to right-click, circle to turn the volume.",
        discussion: """
            GestureBridge listens to pens, touchscreens and mice through XInput2, recognizes \
            gestures (deep press, squeeze, pressure thresholds, a one-finger knob, long press) \
            and turns them into clicks, keys, scrolling or commands through XTest.

            Start with `gesture-bridge run`. Every command that reads a config takes \
            --config FILE; without it, it reads ~/.config/gesture-bridge/config.yaml \
            ($XDG_CONFIG_HOME/gesture-bridge/config.yaml) when that exists, else the built-in \
            default. Tune thresholds with `record` and `analyze`, try a config on a recording \
            with `replay`, and validate it with `check`.
            """,
        version: GestureBridgeVersion.current,
        subcommands: [Run.self, Devices.self, Record.self, Replay.self, Analyze.self, Calibrate.self, Check.self, PrintConfig.self,
                      Doctor.self, Learned.self]
    )

    /// Runs the command named. A `CommandFailure` prints its message as it is and exits with
    /// its status; anything else (a mistake on the command line, `--help`, `--version`) is
    /// ArgumentParser's to report, with the usage where it helps.
    static func main() {
        openStandardDescriptors()
        // A closed output pipe is a write error the command sees, not a death halfway through
        // (a picture being drawn, a file being written). A background job's words to its
        // terminal under `stty tostop` are written, not a stop that hides them (found in review
        // of a terminal's life: `run &` beside a running bridge lingered stopped, never saying
        // why). Programs the bridge starts get the default back (`Subprocess`).
        // Nothing else is blocked until a command reads its signals: Ctrl-C ends a bridge still
        // starting, whatever mask its parent passed on.
        SignalDescriptor.setMask([SIGPIPE, SIGTTOU])
        // Ctrl-\ quits, as in any program, until a command reads it: the Swift runtime's
        // backtracer takes SIGQUIT for a crash (found in review of the day's change: pressed
        // while `run --replace` waited, it printed a crash report and the bridge waited on).
        _ = signal(SIGQUIT, SIG_DFL)
        do {
            if let typo = unknownCommand(askedAbout: Array(CommandLine.arguments.dropFirst())) { throw typo }
            var command = try parseAsRoot()
            try command.run()
            // What `print` left buffered goes out now, where a failure can still be told.
            if let failure = LineWriter.flushPrinted() { throw CommandFailure.output(failure) }
        } catch let failure as CommandFailure {
            if !failure.message.isEmpty {
                // The reason a unit keeps failing: an error for the journal, where it is one.
                let journal = JournalLogHandler.standardErrorIsJournal(environment: ProcessEnvironment.current)
                printError(journal ? JournalLogHandler.entry(level: .error, message: failure.message) : failure.message)
            }
            exit(withError: ExitCode(failure.exitStatus))
        } catch {
            exit(withError: error)
        }
    }

    /// Opens /dev/null on any of the standard input, output and error that the bridge was
    /// started without (`>&-`, a launcher that closes them): the X connection would take the
    /// lowest free descriptor, and every line written to that stream would go into it (the
    /// bridge then hung, deaf to Ctrl-C).
    static func openStandardDescriptors() {
        for descriptor in STDIN_FILENO...STDERR_FILENO where fcntl(descriptor, F_GETFD) == -1 {
            // The lowest free descriptor: this one, those below it being open by now.
            _ = open("/dev/null", O_RDWR)
        }
    }

    /// A command that does not exist. Asked for help (`help NAME`, `NAME --help`), ArgumentParser
    /// shows the overview and exits 0, as if it had been asked for, so a mistyped name passes
    /// for help given; run (`gesture-bridge runn`), it says only "Unexpected argument". This
    /// names the word, the command it may have meant, and the commands there are, with the
    /// usage error's status.
    static func unknownCommand(askedAbout arguments: [String]) -> CommandFailure? {
        var words = arguments[...]
        if words.first == "help" {
            words = words.dropFirst()
        } else if !words.contains(where: { $0 == "--help" || $0 == "-h" || $0 == "-help" }) {
            // Only the command's name: the words after it are its own arguments.
            guard let first = words.first, !first.hasPrefix("-") else { return nil }
            words = [first]
        }
        var command: any ParsableCommand.Type = Self.self
        var atRoot = true
        for word in words {
            if word.hasPrefix("-") { continue }
            // A command without subcommands takes the words after it as its arguments.
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            guard let next = subcommands.first(where: { $0._commandName == word }) else {
                if atRoot && word == "help" { return nil }
                let names = subcommands.map { $0._commandName }
                let meant = Suggestion.closest(to: word, among: names).map { " (did you mean '\($0)'?)" } ?? ""
                return .error("there is no command '\(word)'\(meant); the commands are \(names.joined(separator: ", "))",
                              exitStatus: ExitCode.validationFailure.rawValue)
            }
            command = next
            atRoot = false
        }
        return nil
    }
}
