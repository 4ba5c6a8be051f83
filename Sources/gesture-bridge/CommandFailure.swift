import ArgumentParser
import Glibc

/// The one error a command throws to stop: what standard error says, and the exit status.
///
/// `GestureBridgeCommand.main` prints the message as it is and exits with the status.
/// ArgumentParser would print a thrown error itself, but as `Error: MESSAGE` and always with
/// status 1: right for a mistake on the command line (those stay `ValidationError`s, with the
/// usage), wrong for a broken config (`file:line:column: error: ...`), a lost X server (status
/// 69) or a calibration stopped by a signal (128 + the signal).
struct CommandFailure: Error, CustomStringConvertible {
    /// The lines for standard error; empty when the command has said why already (in its
    /// log, or among its findings).
    var message: String
    var exitStatus: Int32

    init(_ message: String, exitStatus: Int32 = ExitCode.failure.rawValue) {
        self.message = message
        self.exitStatus = exitStatus
    }

    /// `gesture-bridge: error: REASON`.
    static func error(_ reason: String, exitStatus: Int32 = ExitCode.failure.rawValue) -> CommandFailure {
        CommandFailure("gesture-bridge: error: \(reason)", exitStatus: exitStatus)
    }

    /// A failure the command has reported already: it only sets the exit status.
    static func reported(exitStatus: Int32 = ExitCode.failure.rawValue) -> CommandFailure {
        CommandFailure("", exitStatus: exitStatus)
    }

    /// Standard output could not be written (`reason`, the system's words): a full disk says
    /// so and fails; a reader gone (`| head`) is no error worth a line, and the status says it
    /// as a shell does for a command a closed pipe ended (141).
    static func output(_ reason: String) -> CommandFailure {
        reason == String(cString: strerror(EPIPE)) ? .reported(exitStatus: 128 + SIGPIPE)
            : .error("cannot write the output: \(reason)")
    }

    var description: String { message }
}
