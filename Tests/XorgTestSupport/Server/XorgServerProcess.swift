import CX11
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A running test Xorg: its process, the guardian that ends it if the test process dies, and
/// its display number. Both kinds of test server (`HeadlessXorg`, `RealDriverXorg`) start and
/// end theirs here; they differ only in the configuration and, for libinput, a command the
/// server runs under (`launcher`).
final class XorgServerProcess {
    let process: Process
    let configuration: XorgConfiguration
    let reservation: DisplayReservation
    /// When the start's time ran out or will run out: what is left of it is the devices' to use.
    let startupDeadline: Date
    private var guardian: ServerGuardian?

    var displayName: String { reservation.displayName }
    /// False once stopped, crashed, or gone by itself.
    var isRunning: Bool { guardian != nil && process.isRunning }

    private init(process: Process, configuration: XorgConfiguration, reservation: DisplayReservation,
                 guardian: ServerGuardian, startupDeadline: Date) {
        self.process = process
        self.configuration = configuration
        self.reservation = reservation
        self.guardian = guardian
        self.startupDeadline = startupDeadline
    }

    /// Writes `configuration` into its run directory, starts the server on a free display, and
    /// returns once it accepts X connections. Another X server (not started here) may take the
    /// number between the check and the start: then the next number is tried, five in all.
    /// - Parameter launcher: a command and its arguments the server's command line is appended
    ///   to, or none to start the server itself.
    static func launch(installation: XorgInstallation, configuration: XorgConfiguration, launcher: [String] = [],
                       startupTimeout: Double) throws -> XorgServerProcess {
        // Before the first probe of the first server: no display of the process opens without it.
        XlibThreads.initialize()
        var start = DisplayReservation.searchRange.lowerBound
        for _ in 0..<5 {
            switch try launchOnce(installation: installation, configuration: configuration, launcher: launcher,
                                  startupTimeout: startupTimeout, startingAt: start) {
            case .started(let server): return server
            case .displayTaken(let number): start = number + 1
            }
        }
        throw HeadlessXorgError.cannotPrepare(reason: "every display number tried was taken by another X server")
    }

    private enum LaunchAttempt {
        case started(XorgServerProcess)
        case displayTaken(number: Int)
    }

    private static func launchOnce(
        installation: XorgInstallation, configuration: XorgConfiguration, launcher: [String], startupTimeout: Double,
        startingAt start: Int
    ) throws -> LaunchAttempt {
        let reservation = try DisplayReservation.reserve(startingAt: start)
        let process = Process()
        do {
            try configuration.text.write(toFile: configuration.path, atomically: true, encoding: .utf8)
            if !FileManager.default.fileExists(atPath: configuration.snippetDirectory) {
                try FileManager.default.createDirectory(
                    atPath: configuration.snippetDirectory, withIntermediateDirectories: false)
                // The server reports a config directory without any .conf file as an error.
                try "# No configuration snippets: the server has only the devices of xorg.conf.\n"
                    .write(toFile: configuration.snippetDirectory + "/00-none.conf", atomically: true, encoding: .utf8)
            }
            guard FileManager.default.createFile(atPath: configuration.errorOutputPath, contents: nil),
                  let errorOutput = FileHandle(forWritingAtPath: configuration.errorOutputPath) else {
                throw HeadlessXorgError.cannotPrepare(reason: "cannot create \(configuration.errorOutputPath)")
            }
            let serverCommand = [
                installation.serverExecutable, reservation.displayName,
                "-config", configuration.path,
                "-configdir", configuration.snippetDirectory,
                "-logfile", configuration.logPath,
                "-noreset", "-novtswitch", "-sharevts", "-keeptty",
                "-nolisten", "tcp", "-nolisten", "local",
            ]
            let command = launcher + serverCommand
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = errorOutput
            process.standardError = errorOutput
            try ChildProcessLauncher.run(process)
            try? errorOutput.close()
        } catch {
            reservation.release()
            if let error = error as? HeadlessXorgError { throw error }
            throw HeadlessXorgError.cannotPrepare(reason: "starting \(installation.serverExecutable) failed: \(error)")
        }

        let guardian: ServerGuardian
        do {
            guardian = try ServerGuardian(serverProcessID: process.processIdentifier, runDirectory: configuration.runDirectory)
        } catch {
            shutDown(process: process, guardian: nil, reservation: reservation)
            throw HeadlessXorgError.cannotPrepare(reason: "starting the server's guardian failed: \(error)")
        }

        let deadline = Date().addingTimeInterval(startupTimeout)
        while true {
            if let display = XOpenDisplay(reservation.displayName) {
                XCloseDisplay(display)
                return .started(XorgServerProcess(
                    process: process, configuration: configuration, reservation: reservation, guardian: guardian,
                    startupDeadline: deadline))
            }
            if !process.isRunning {
                process.waitUntilExit()
                let log = (try? String(contentsOfFile: configuration.logPath, encoding: .utf8)) ?? ""
                let errorOutput = (try? String(contentsOfFile: configuration.errorOutputPath, encoding: .utf8)) ?? ""
                shutDown(process: process, guardian: guardian, reservation: reservation)
                if log.contains("already active") || errorOutput.contains("already active") {
                    return .displayTaken(number: reservation.number)
                }
                throw HeadlessXorgError.exitedEarly(
                    display: reservation.displayName, status: process.terminationStatus,
                    logTail: configuration.logTail())
            }
            if Date() >= deadline {
                shutDown(process: process, guardian: guardian, reservation: reservation)
                throw HeadlessXorgError.notAcceptingConnections(
                    display: reservation.displayName, waited: startupTimeout, logTail: configuration.logTail())
            }
            usleep(10_000)
        }
    }

    /// Ends the server: SIGTERM, then SIGKILL if it is still there after 3 s; then its guardian
    /// and the display number. True when it stopped it, false when it was stopped before.
    @discardableResult
    func stop() -> Bool {
        guard let guardian else { return false }
        self.guardian = nil
        Self.shutDown(process: process, guardian: guardian, reservation: reservation)
        return true
    }

    /// Kills the server with SIGKILL, as a crash would end it, and waits until it is gone.
    func crash() {
        guard isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // A killed server leaves its lock and socket behind.
        reservation.removeServerLeftovers()
    }

    private static func shutDown(process: Process, guardian: ServerGuardian?, reservation: DisplayReservation) {
        var killedHard = false
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(3)
            while process.isRunning, Date() < deadline {
                usleep(5_000)
            }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killedHard = true
            }
        }
        process.waitUntilExit()
        guardian?.dismiss()
        if killedHard {
            reservation.removeServerLeftovers()
        }
        reservation.release()
    }
}

extension XorgConfiguration {
    /// The last lines of the server's log (or, when it wrote none, of its error output), for a
    /// failure message.
    func logTail(lines: Int = 30) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8))
            ?? (try? String(contentsOfFile: errorOutputPath, encoding: .utf8))
            ?? "(no log written)"
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }
}

/// The fresh directory a test server keeps its config, log and device sockets in.
enum XorgRunDirectory {
    /// Set to 1 to keep the run directory (config and log) after a server stops, for a post-mortem.
    static let keepVariable = "GESTUREBRIDGE_KEEP_XORG_RUN"

    /// Creates `<temporary directory>/<prefix>-XXXXXX`.
    static func make(prefix: String) throws -> URL {
        // Unix socket paths are limited to 107 bytes: a deep TMPDIR would break the device sockets.
        var base = FileManager.default.temporaryDirectory.path
        if base.utf8.count > 60 {
            base = "/tmp"
        }
        var template = Array((base + "/\(prefix)-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }
        }
        guard created != nil else {
            throw HeadlessXorgError.cannotPrepare(
                reason: "cannot create a run directory in \(base): \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { String(cString: $0) } ?? ""
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// Removes `url` once its server has stopped, unless `keepVariable` asks to keep it.
    static func remove(_ url: URL, evenIfKept: Bool = false) {
        guard evenIfKept || ProcessInfo.processInfo.environment[keepVariable] != "1" else { return }
        try? FileManager.default.removeItem(at: url)
    }
}
