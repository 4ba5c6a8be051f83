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

    /// What a suggested binding (`analyze`, `calibrate`) builds on: the config --config names,
    /// whose errors stop the command; else the user's own; else, or where it does not load
    /// (said, with why), the built-in default, as a bridge started now runs. Found in review:
    /// a config that did not load left the suggestion with no `applications`, so pasted in
    /// it right-clicked in drawing programs the default leaves alone.
    func suggestionBase() throws -> BindingSet {
        if config != nil { return try load().0 }
        do {
            return try source().load(keyNames: XKeysymNames())
        } catch {
            printError(error.description)
            printError("(the binding suggested builds on the built-in default's deep press, as a bridge started now runs it)")
            return ConfigLoader.builtInDefault
        }
    }

    /// The config file read, if one is: none for the built-in default.
    var readFile: [String] {
        if case .file(let path) = source() { return [path] }
        return []
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
