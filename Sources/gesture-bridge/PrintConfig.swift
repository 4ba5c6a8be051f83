import ArgumentParser
import GestureKit

struct PrintConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print-config",
        abstract: "Show the config the bridge would use, with every default spelled out.",
        discussion: """
            The config comes from --config when given, else from \
            $XDG_CONFIG_HOME/gesture-bridge/config.yaml (~/.config/gesture-bridge/config.yaml) \
            when it exists, else the built-in default. The output is itself a valid config: \
            redirect it to a file to start your own.

            Example:
              mkdir -p ~/.config/gesture-bridge
              gesture-bridge print-config > ~/.config/gesture-bridge/config.yaml
            """
    )

    @OptionGroup var config: ConfigOption

    func run() throws {
        let (bindings, source) = try config.load()
        print("# effective config, from \(source)")
        print(ConfigRenderer.render(bindings), terminator: "")
    }
}
