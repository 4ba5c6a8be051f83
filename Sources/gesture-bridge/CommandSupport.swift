import ArgumentParser
import Foundation
import GestureKit

/// Writes a message to standard error (ArgumentParser's own errors print usage, which is
/// noise when the problem is a file's contents).
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

func loadTrace(path: String) throws -> Trace {
    do {
        return try TraceReader.load(path: path)
    } catch {
        printError(error.description)
        throw ExitCode.failure
    }
}
