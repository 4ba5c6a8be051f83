import ArgumentParser
import GestureKit
import X11Bridge

/// Writes a message to standard error: progress, warnings, and a `CommandFailure`'s message
/// (ArgumentParser's own errors print usage, which is noise when the problem is a file's
/// contents).
func printError(_ message: String) {
    LineWriter(descriptor: 2).write(message)
}

/// A trace read as it goes; a bad file or line prints its error and fails the command.
func openTrace(path: String) throws -> TraceStream {
    do {
        return try TraceReader.open(path: path)
    } catch {
        throw CommandFailure(error.description)
    }
}

/// Each event of a trace in turn, then nil; a bad line prints its error and fails the command.
func nextEvent(_ stream: TraceStream) throws -> ContactEvent? {
    do {
        return try stream.next()
    } catch {
        throw CommandFailure(error.description)
    }
}
