import ArgumentParser
import Foundation
import GestureKit

/// Writes a message to standard error (ArgumentParser's own errors print usage, which is
/// noise when the problem is a file's contents).
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Reads the config the bridge uses: --config, else the user's config file, else the built-in
/// default. Prints the errors and exits non-zero when it is broken.
func loadConfiguration(explicit path: String?) throws -> (BindingSet, ConfigSource) {
    let source = ConfigSource.resolve(explicit: path)
    do {
        return (try source.load(), source)
    } catch {
        printError(error.description)
        throw ExitCode.failure
    }
}

/// Reads a config given with --config, or the built-in default (for commands that work on a
/// recording, where the user's live config would be a surprise).
func loadConfiguration(path: String?) throws -> BindingSet {
    guard let path else { return ConfigLoader.builtInDefault }
    do {
        return try ConfigLoader.load(path: path)
    } catch {
        printError(error.description)
        throw ExitCode.failure
    }
}

func loadTrace(path: String) throws -> Trace {
    do {
        return try TraceReader.load(path: path)
    } catch {
        printError(error.description)
        throw ExitCode.failure
    }
}
