import ArgumentParser
import GestureKit

struct PrintConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print-config",
        abstract: "Show the config the bridge would use, with every default spelled out.",
        discussion: """
            The config comes from --config when given, else from \
            $XDG_CONFIG_HOME/gesture-bridge/config.yaml (~/.config/gesture-bridge/config.yaml) \
            when it exists, else the built-in default; --default prints the built-in one \
            whatever files there are. The output is itself a valid config: redirect it to a \
            file to start your own. Into the file it would read, only with --default: the \
            shell empties that file before print-config reads it.

            The bridge refuses a config others could change; the example keeps the folder and \
            the file yours alone, whatever your umask.

            Example:
              mkdir -p -m 700 ~/.config/gesture-bridge
              gesture-bridge print-config --default > ~/.config/gesture-bridge/config.yaml
              chmod 600 ~/.config/gesture-bridge/config.yaml
            """
    )

    @OptionGroup var config: ConfigOption

    @Flag(name: .customLong("default"), help: "Print the built-in default config, not the one the bridge would read.")
    var builtInDefault = false

    func validate() throws {
        if builtInDefault, config.config != nil {
            throw ValidationError("--default prints the built-in config; --config names another: give one of them")
        }
    }

    func run() throws {
        let (bindings, source) = builtInDefault ? (ConfigLoader.builtInDefault, ConfigSource.builtInDefault) : try config.load()
        print("# effective config, from \(source)")
        print(ConfigRenderer.render(bindings), terminator: "")
    }
}
