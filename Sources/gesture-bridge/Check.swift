import ArgumentParser
import GestureKit

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a config file and summarize its bindings.",
        discussion: """
            Exits 0 when the config is valid and prints what each binding does; otherwise prints \
            every problem as file:line:column with what to change, and exits 1. With no file, \
            checks the built-in default.

            Example:
              gesture-bridge check ~/.config/gesture-bridge/config.yaml
            """
    )

    @Argument(help: ArgumentHelp("The config to check (default: the built-in default).", valueName: "config"))
    var config: String?

    func run() throws {
        let bindings = try loadConfiguration(path: config)
        print("\(config ?? DefaultConfig.name): OK, \(bindings.bindings.count) binding\(bindings.bindings.count == 1 ? "" : "s"), decision timeout \(bindings.decisionTimeout.formatted) s")
        for binding in bindings.bindings {
            let devices = binding.devices.isEmpty ? "all devices" : binding.devices.map(\.description).joined(separator: ", ")
            let owns = binding.ownsContact ? "owns its contacts" : "observes only"
            print("  \(binding.name): \(binding.recognizer.kind.rawValue) on \(devices) (\(owns))")
        }
    }
}
