import Foundation

/// A real Xorg with no screen attached (dummy video driver) and three virtual input devices
/// driven over unix sockets by the inputtest driver: a pressure pen, an XI 2.2 touchscreen and
/// a keyboard, and on request a plain mouse. An application connected to `displayName` receives their events exactly as it
/// would from hardware.
///
/// Each server lives in a fresh temporary run directory (config, log, device sockets) on its
/// own display number, so tests may run several at once. `stop()` (also run by `deinit`) ends
/// it; keep the object alive, for instance with `defer { server.stop() }`, until the test is
/// done with the display.
public final class HeadlessXorg {
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
    /// The plain mouse, on a server started with one.
    public let mouse: VirtualMouse?

    private let server: XorgServerProcess

    /// What keeps a server from starting on this machine, or nil when it can start.
    public static func unavailableReason() -> String? {
        switch XorgInstallation.locate() {
        case .success: nil
        case .failure(.unavailable(let reason)): reason
        case .failure(let error): error.description
        }
    }

    /// Starts a server (with `mouse`, a plain mouse too) and connects to its devices; returns
    /// once it accepts X connections.
    public init(width: Int = 1280, height: Int = 800, startupTimeout: Double = 5, mouse: Bool = false,
                mouseName: String = VirtualMouse.deviceName) throws {
        let installation = try XorgInstallation.locate().get()
        guard width > 0, height > 0 else {
            throw HeadlessXorgError.cannotPrepare(reason: "the screen size \(width)x\(height) is not positive")
        }
        let runDirectory = try XorgRunDirectory.make(prefix: "gesturebridge-xorg")
        let configuration = XorgConfiguration.inputTest(width: width, height: height, runDirectory: runDirectory.path,
                                                        mouse: mouse, mouseName: mouseName)
        let server: XorgServerProcess
        do {
            server = try XorgServerProcess.launch(
                installation: installation, configuration: configuration, startupTimeout: startupTimeout)
        } catch {
            XorgRunDirectory.remove(runDirectory, evenIfKept: true)
            throw error
        }

        func connect(_ device: String, _ socketFileName: String) throws -> InputTestConnection {
            do {
                return try InputTestConnection(
                    socketPath: XorgConfiguration.socketPath(socketFileName, in: runDirectory.path),
                    connectTimeout: max(0.5, server.startupDeadline.timeIntervalSinceNow))
            } catch {
                throw HeadlessXorgError.deviceConnectionFailed(
                    display: server.displayName, device: device, reason: "\(error)", logTail: configuration.logTail())
            }
        }
        var connections: [InputTestConnection] = []
        do {
            connections.append(try connect(VirtualPen.deviceName, VirtualPen.socketFileName))
            connections.append(try connect(VirtualTouchscreen.deviceName, VirtualTouchscreen.socketFileName))
            connections.append(try connect(VirtualKeyboard.deviceName, VirtualKeyboard.socketFileName))
            if mouse { connections.append(try connect(mouseName, VirtualMouse.socketFileName)) }
        } catch {
            server.stop()
            connections.forEach { $0.close() }
            XorgRunDirectory.remove(runDirectory, evenIfKept: true)
            throw error
        }
        XInputExtensionAnchor.ensure(displayName: server.displayName)
        self.server = server
        self.displayName = server.displayName
        self.displayNumber = server.reservation.number
        self.width = width
        self.height = height
        self.runDirectory = runDirectory
        self.logURL = URL(fileURLWithPath: configuration.logPath)
        self.processID = server.process.processIdentifier
        self.pen = VirtualPen(connection: connections[0], screenWidth: width, screenHeight: height)
        self.touch = VirtualTouchscreen(connection: connections[1], screenWidth: width, screenHeight: height)
        self.keyboard = VirtualKeyboard(connection: connections[2])
        self.mouse = connections.count > 3 ? VirtualMouse(connection: connections[3]) : nil
    }

    deinit {
        stop()
    }

    public var isRunning: Bool {
        server.isRunning
    }

    /// Ends the server: SIGTERM, then SIGKILL if it is still there after 3 s. Safe to call twice.
    public func stop() {
        guard server.stop() else { return }
        // Only now: a device connection closed under a live server makes it spin on the socket.
        pen.connection.close()
        touch.connection.close()
        keyboard.connection.close()
        mouse?.connection.close()
        XorgRunDirectory.remove(runDirectory)
    }

    /// Kills the server with SIGKILL, as a crash would end it, and waits until it is gone.
    /// Clients see their connections break; `stop()` still cleans up afterwards.
    public func crash() {
        server.crash()
    }

    /// The last lines of the server's log, for a failure message.
    public func logTail(lines: Int = 30) -> String {
        server.configuration.logTail(lines: lines)
    }
}
