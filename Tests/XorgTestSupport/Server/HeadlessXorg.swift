import CX11
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real Xorg with no screen attached (dummy video driver) and three virtual input devices
/// driven over unix sockets by the inputtest driver: a pressure pen, an XI 2.2 touchscreen and
/// a keyboard. An application connected to `displayName` receives their events exactly as it
/// would from hardware.
///
/// Each server lives in a fresh temporary run directory (config, log, device sockets) on its
/// own display number, so tests may run several at once. `stop()` (also run by `deinit`) ends
/// it; keep the object alive, for instance with `defer { server.stop() }`, until the test is
/// done with the display.
public final class HeadlessXorg {
    /// Set to 1 to keep the run directory (config and log) after `stop()`, for a post-mortem.
    public static let keepRunDirectoryVariable = "GESTUREBRIDGE_KEEP_XORG_RUN"

    public let displayName: String
    public let displayNumber: Int
    public let width: Int
    public let height: Int
    public let runDirectory: URL
    public let logURL: URL
    public let processID: Int32

    public let pen: VirtualPen
    public let touch: VirtualTouchscreen
    public let keyboard: VirtualKeyboard

    private var serverProcess: Process?
    private var guardian: ServerGuardian?
    private let reservation: DisplayReservation
    private let errorOutputURL: URL

    /// What keeps a server from starting on this machine, or nil when it can start.
    public static func unavailableReason() -> String? {
        switch XorgInstallation.locate() {
        case .success: nil
        case .failure(.unavailable(let reason)): reason
        case .failure(let error): error.description
        }
    }

    /// Starts a server and connects to its devices; returns once it accepts X connections.
    public init(width: Int = 1280, height: Int = 800, startupTimeout: Double = 5) throws {
        let installation = try XorgInstallation.locate().get()
        guard width > 0, height > 0 else {
            throw HeadlessXorgError.cannotPrepare(reason: "the screen size \(width)x\(height) is not positive")
        }
        var attempt = try Self.launch(
            installation: installation, width: width, height: height, startupTimeout: startupTimeout,
            startingAt: DisplayReservation.searchRange.lowerBound)
        var attempts = 1
        // Another X server (not started here) may take the number between the check and the start.
        while case .displayTaken(let number) = attempt, attempts < 5 {
            attempt = try Self.launch(
                installation: installation, width: width, height: height, startupTimeout: startupTimeout,
                startingAt: number + 1)
            attempts += 1
        }
        guard case .started(let launched) = attempt else {
            throw HeadlessXorgError.cannotPrepare(reason: "every display number tried was taken by another X server")
        }

        self.displayName = launched.reservation.displayName
        self.displayNumber = launched.reservation.number
        self.width = width
        self.height = height
        self.runDirectory = launched.runDirectory
        self.logURL = launched.logURL
        self.errorOutputURL = launched.errorOutputURL
        self.processID = launched.process.processIdentifier
        self.serverProcess = launched.process
        self.guardian = launched.guardian
        self.reservation = launched.reservation

        let configuration = launched.configuration
        let deadline = launched.deadline
        func connect(_ device: String, _ path: String) throws -> InputTestConnection {
            do {
                return try InputTestConnection(socketPath: path, connectTimeout: max(0.5, deadline.timeIntervalSinceNow))
            } catch {
                throw HeadlessXorgError.deviceConnectionFailed(
                    display: launched.reservation.displayName, device: device,
                    reason: "\(error)", logTail: Self.tail(of: launched.logURL, orElse: launched.errorOutputURL))
            }
        }
        var connections: [InputTestConnection] = []
        do {
            connections.append(try connect(VirtualPen.deviceName, configuration.penSocketPath))
            connections.append(try connect(VirtualTouchscreen.deviceName, configuration.touchSocketPath))
            connections.append(try connect(VirtualKeyboard.deviceName, configuration.keyboardSocketPath))
        } catch {
            Self.shutDown(process: launched.process, guardian: launched.guardian, reservation: launched.reservation)
            connections.forEach { $0.close() }
            Self.removeRunDirectory(launched.runDirectory)
            throw error
        }
        XInputExtensionAnchor.ensure(displayName: launched.reservation.displayName)
        self.pen = VirtualPen(connection: connections[0], screenWidth: width, screenHeight: height)
        self.touch = VirtualTouchscreen(connection: connections[1], screenWidth: width, screenHeight: height)
        self.keyboard = VirtualKeyboard(connection: connections[2])
    }

    deinit {
        stop()
    }

    public var isRunning: Bool {
        serverProcess?.isRunning ?? false
    }

    /// Ends the server: SIGTERM, then SIGKILL if it is still there after 3 s. Safe to call twice.
    public func stop() {
        guard let process = serverProcess else { return }
        serverProcess = nil
        Self.shutDown(process: process, guardian: guardian, reservation: reservation)
        guardian = nil
        // Only now: a device connection closed under a live server makes it spin on the socket.
        pen.connection.close()
        touch.connection.close()
        keyboard.connection.close()
        if ProcessInfo.processInfo.environment[Self.keepRunDirectoryVariable] != "1" {
            Self.removeRunDirectory(runDirectory)
        }
    }

    /// Kills the server with SIGKILL, as a crash would end it, and waits until it is gone.
    /// Clients see their connections break; `stop()` still cleans up afterwards.
    public func crash() {
        guard let process = serverProcess, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // A killed server leaves its lock and socket behind.
        reservation.removeServerLeftovers()
    }

    /// The last lines of the server's log, for a failure message.
    public func logTail(lines: Int = 30) -> String {
        Self.tail(of: logURL, orElse: errorOutputURL, lines: lines)
    }

    /// The environment for a child process (xinput, xdotool, the bridge) that talks to this server.
    public var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = displayName
        environment.removeValue(forKey: "XAUTHORITY")
        return environment
    }

    // MARK: - Starting

    private struct Launched {
        let process: Process
        let guardian: ServerGuardian
        let reservation: DisplayReservation
        /// Its run directory and the files in it, too.
        let configuration: XorgConfiguration
        let deadline: Date

        var runDirectory: URL { URL(fileURLWithPath: configuration.runDirectory, isDirectory: true) }
        var logURL: URL { URL(fileURLWithPath: configuration.logPath) }
        var errorOutputURL: URL { URL(fileURLWithPath: configuration.errorOutputPath) }
    }

    private enum LaunchAttempt {
        case started(Launched)
        case displayTaken(number: Int)
    }

    private static func launch(
        installation: XorgInstallation, width: Int, height: Int, startupTimeout: Double, startingAt start: Int
    ) throws -> LaunchAttempt {
        let reservation = try DisplayReservation.reserve(startingAt: start)
        let runDirectory = try makeRunDirectory()
        let configuration = XorgConfiguration(width: width, height: height, runDirectory: runDirectory.path)
        let configURL = runDirectory.appendingPathComponent("xorg.conf")
        let emptyConfigDirectory = runDirectory.appendingPathComponent("xorg.conf.d")
        let logURL = URL(fileURLWithPath: configuration.logPath)
        let errorOutputURL = URL(fileURLWithPath: configuration.errorOutputPath)
        let process = Process()
        do {
            try configuration.text.write(to: configURL, atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(at: emptyConfigDirectory, withIntermediateDirectories: false)
            // The server reports a config directory without any .conf file as an error.
            try "# No configuration snippets: the server has only the devices of xorg.conf.\n"
                .write(to: emptyConfigDirectory.appendingPathComponent("00-none.conf"), atomically: true, encoding: .utf8)
            guard FileManager.default.createFile(atPath: errorOutputURL.path, contents: nil) else {
                throw HeadlessXorgError.cannotPrepare(reason: "cannot create \(errorOutputURL.path)")
            }
            process.executableURL = URL(fileURLWithPath: installation.serverExecutable)
            process.arguments = [
                reservation.displayName,
                "-config", configURL.path,
                // An empty config directory: the machine's xorg.conf.d snippets must not add devices.
                "-configdir", emptyConfigDirectory.path,
                "-logfile", logURL.path,
                "-noreset", "-novtswitch", "-sharevts", "-keeptty",
                "-nolisten", "tcp", "-nolisten", "local",
            ]
            process.standardInput = FileHandle.nullDevice
            let errorOutput = try FileHandle(forWritingTo: errorOutputURL)
            process.standardOutput = errorOutput
            process.standardError = errorOutput
            try ChildProcessLauncher.run(process)
            try? errorOutput.close()
        } catch {
            removeRunDirectory(runDirectory)
            if let error = error as? HeadlessXorgError { throw error }
            throw HeadlessXorgError.cannotPrepare(reason: "starting \(installation.serverExecutable) failed: \(error)")
        }

        let guardian: ServerGuardian
        do {
            guardian = try ServerGuardian(serverProcessID: process.processIdentifier, runDirectory: runDirectory.path)
        } catch {
            shutDown(process: process, guardian: nil, reservation: reservation)
            removeRunDirectory(runDirectory)
            throw HeadlessXorgError.cannotPrepare(reason: "starting the server's guardian failed: \(error)")
        }

        let deadline = Date().addingTimeInterval(startupTimeout)
        while true {
            if let display = XOpenDisplay(reservation.displayName) {
                XCloseDisplay(display)
                break
            }
            if !process.isRunning {
                process.waitUntilExit()
                let logTail = tail(of: logURL, orElse: errorOutputURL)
                let errorOutput = (try? String(contentsOf: errorOutputURL, encoding: .utf8)) ?? ""
                shutDown(process: process, guardian: guardian, reservation: reservation)
                removeRunDirectory(runDirectory)
                if errorOutput.contains("already active") || logTail.contains("already active") {
                    return .displayTaken(number: reservation.number)
                }
                throw HeadlessXorgError.exitedEarly(
                    display: reservation.displayName, status: process.terminationStatus, logTail: logTail)
            }
            if Date() >= deadline {
                let logTail = tail(of: logURL, orElse: errorOutputURL)
                shutDown(process: process, guardian: guardian, reservation: reservation)
                removeRunDirectory(runDirectory)
                throw HeadlessXorgError.notAcceptingConnections(
                    display: reservation.displayName, waited: startupTimeout, logTail: logTail)
            }
            usleep(10_000)
        }
        return .started(Launched(
            process: process, guardian: guardian, reservation: reservation, configuration: configuration, deadline: deadline))
    }

    private static func makeRunDirectory() throws -> URL {
        // Unix socket paths are limited to 107 bytes: a deep TMPDIR would break the device sockets.
        var base = FileManager.default.temporaryDirectory.path
        if base.utf8.count > 60 {
            base = "/tmp"
        }
        var template = Array((base + "/gesturebridge-xorg-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.flatMap { mkdtemp($0) }
        }
        guard created != nil else {
            throw HeadlessXorgError.cannotPrepare(reason: "cannot create a run directory in \(base): \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { String(cString: $0) } ?? ""
        }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    // MARK: - Stopping

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

    private static func removeRunDirectory(_ url: URL) {
        try? FileManager.default.removeItem(at: url)
    }

    private static func tail(of url: URL, orElse fallback: URL, lines: Int = 30) -> String {
        let text = (try? String(contentsOf: url, encoding: .utf8))
            ?? (try? String(contentsOf: fallback, encoding: .utf8))
            ?? "(no log written)"
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }
}
