import ArgumentParser
import Glibc
import GestureKit
import Logging
import X11Bridge

/// Logging and display opening shared by the commands that talk to the X server.
enum CommandLogging {
    /// Log lines on standard error: with their priority for the journal when it is the
    /// journal's stream (`JournalLogHandler`), else stamped with the time and level. Through
    /// `detached` (`run`'s), a stderr nobody reads never stops the caller; it is finished
    /// before the process ends.
    static func logger(verbose: Bool, detached: DetachedWriter? = nil) -> Logger {
        let level: Logger.Level = verbose ? .debug : .info
        let journal = JournalLogHandler.standardErrorIsJournal(environment: ProcessEnvironment.current)
        LoggingSystem.bootstrap { label in
            if journal {
                var handler = JournalLogHandler(output: detached)
                handler.logLevel = level
                return handler
            }
            var handler = detached.map { StreamLogHandler(label: label, stream: DetachedStream(writer: $0)) }
                ?? StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "gesture-bridge")
    }

    /// The X connection, or a clear message and a non-zero exit.
    static func openDisplay(requirements: XConnection.Requirements, logger: Logger) throws -> XConnection {
        do {
            let name = try DisplayCheck.displayName(environment: ProcessEnvironment.current)
            return try XConnection.open(name: name, requirements: requirements)
        } catch {
            throw CommandFailure.error(error.description, exitStatus: error.exitStatus)
        }
    }

    /// The signalfd for the signals the bridge stops on (`SignalDescriptor.bridgeSignals`, or
    /// `signals`; blocked by now), or the reason it cannot be made, through `report`, and a
    /// non-zero exit.
    static func bridgeSignals(_ signals: [Int32] = SignalDescriptor.bridgeSignals,
                              report: (String) -> Void) throws -> SignalDescriptor {
        do {
            return try SignalDescriptor(signals: signals)
        } catch {
            report(error.description)
            throw CommandFailure.reported()
        }
    }
}
