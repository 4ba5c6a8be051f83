import ArgumentParser
import GestureKit
import X11Bridge

/// `--config FILE`, shared by every command that reads a config, with one fallback for all:
/// the file given; else the user's own (`$XDG_CONFIG_HOME/gesture-bridge/config.yaml`, by
/// default `~/.config/gesture-bridge/config.yaml`) when it exists; else the built-in default.
struct ConfigOption: ParsableArguments {
    static let fallback = "default: ~/.config/gesture-bridge/config.yaml when it exists (or is a link, whatever it leads to), else the built-in default"

    @Option(name: .shortAndLong, help: ArgumentHelp("The config file (\(Self.fallback)).", valueName: "file"),
            completion: .file())
    var config: String?

    /// Where the config comes from, by the fallback above; `positional` (a file named without
    /// --config, as `check FILE` takes it) counts as --config.
    func source(positional: String? = nil) -> ConfigSource {
        ConfigSource.resolve(explicit: config ?? positional)
    }

    /// The config, or its errors printed as file:line:column and exit status 1.
    func load(positional: String? = nil) throws -> (BindingSet, ConfigSource) {
        let source = source(positional: positional)
        do {
            return (try source.load(keyNames: XKeysymNames()), source)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
