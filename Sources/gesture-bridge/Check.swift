import ArgumentParser
import GestureKit

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a config file and summarize its bindings.",
        discussion: """
            Exits 0 when the config is valid and prints what each binding does, with a warning \
            for each program one binding's `except` list names and another's lacks, and for a \
            command written as for a shell (`~`, `$HOME`, `|`: commands run without one); otherwise prints \
            every problem as file:line:column with what to change, and exits 1. With no file, \
            checks the config `run` would use: ~/.config/gesture-bridge/config.yaml when it \
            exists, else the built-in default.

            Examples:
              gesture-bridge check my-config.yaml
              gesture-bridge check --config my-config.yaml
              gesture-bridge print-config --default | gesture-bridge check -
              gesture-bridge check
            """
    )

    @Argument(help: ArgumentHelp("The config to check, as with --config; - reads standard input.", valueName: "file"), completion: .file())
    var file: String?

    @OptionGroup var config: ConfigOption

    func validate() throws {
        if file != nil && config.config != nil {
            throw ValidationError("name the config once: either `check FILE` or `check --config FILE`")
        }
    }

    func run() throws {
        // `-` reads standard input, named either way (found in review: `--config -` did not).
        var option = config
        option.config = nil
        let (bindings, source) = try option.load(positional: (file ?? config.config).map { $0 == "-" ? "/dev/stdin" : $0 })
        print("\(source): OK, \(bindings.bindings.count) binding\(bindings.bindings.count == 1 ? "" : "s"), decision timeout \(bindings.decisionTimeout.formatted) s, hold limit \(bindings.holdLimit.formatted) s")
        for binding in bindings.bindings {
            let devices = binding.devices.isEmpty ? "all devices" : binding.devices.map(\.description).joined(separator: ", ")
            let owns = binding.ownsContact ? "owns its contacts" : "observes only"
            // Found in review: a binding limited to some applications read as if it acted everywhere.
            let applications = switch binding.applications {
            case .everywhere: ""
            case .only(let names): ", only in " + names.joined(separator: ", ")
            case .except(let names): ", not in " + names.joined(separator: ", ")
            }
            print("  \(binding.name): \(binding.recognizer.kind.rawValue) on \(devices)\(applications) (\(owns))")
        }
        // Found in review: a drawing program added to one `except` list and not the others
        // still got a right-click from a finger held still there.
        for gap in bindings.exceptListGaps {
            for (program, others) in gap.missing {
                printError("warning: \(gap.binding) acts in \(program), which \(others.joined(separator: ", ")) \(others.count == 1 ? "leaves" : "leave") alone; add \(program) to the except list of \(gap.binding) to leave it alone there too")
            }
        }
        for (binding, message) in bindings.shellWarnings + bindings.bindingWarnings {
            printError("warning: \(binding): \(message)")
        }
    }
}
