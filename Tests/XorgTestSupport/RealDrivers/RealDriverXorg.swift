import CX11
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A headless Xorg whose pen and touchscreen are run by a real X input driver (wacom, evdev or
/// libinput) on emulated evdev nodes (`gesture-evdev-fuse`): what a person's session has, driven
/// from a test through device scripts (`pen`, `touch`) that write kernel events.
///
/// Like HeadlessXorg: a fresh run directory and its own display number, an inputtest keyboard,
/// `stop()` (also `deinit`) ends the server, then the FUSE server, and removes everything; a
/// guardian ends them if the test process dies first. Needs root.
///
/// - wacom: an ISDv4-like Wacom pen (`InputDevice`, the X device named `penDeviceName`); no
///   touchscreen.
/// - evdev: a pen tablet and a multitouch screen with ABS_MT_PRESSURE.
/// - libinput: a Huion-like pen (pressure 0...8191, tilt) and a multitouch screen with or without
///   ABS_MT_PRESSURE, added through the udev backend in a private mount namespace. The pen's
///   own X device appears only when it first comes near (`penDeviceName`); until then the
///   tablet is a device with no axes (`tabletDeviceName`).
public final class RealDriverXorg: HeadlessDisplay {
    public let driver: RealDriver
    public let displayName: String
    public let displayNumber: Int
    public let width: Int
    public let height: Int
    public let runDirectory: URL
    public let logURL: URL
    public let processID: Int32

    public let pen: RealDriverPen
    public let touch: RealDriverTouchscreen?
    public let keyboard: VirtualKeyboard
    /// The X device that posts the pen's events (under libinput: once the pen has come near).
    public let penDeviceName: String
    /// Under libinput, the tablet's own device (no axes), present from the start; else nil.
    public let tabletDeviceName: String?
    public let touchDeviceName: String?

    private var serverProcess: Process?
    private var guardian: ServerGuardian?
    private var fuse: EvdevFuseServer?
    private let reservation: DisplayReservation
    private let errorOutputURL: URL

    /// What keeps the real-driver tests from running at all here (not root, no Xorg): a reason
    /// to skip, as for every Xorg test. A missing driver is no such reason (see `init`).
    public static func unavailableReason() -> String? {
        HeadlessXorg.unavailableReason()
    }

    /// Starts the server with `driver`'s devices, and returns once they exist in it.
    /// - Parameter touchPressure: libinput only: whether the touchscreen reports ABS_MT_PRESSURE
    ///   (libinput drops it either way).
    public init(driver: RealDriver, touchPressure: Bool = true, width: Int = 1280, height: Int = 800,
                startupTimeout: Double = 10) throws {
        let installation = try XorgInstallation.locate().get()
        if let missing = RealDriverToolchain.missing(for: driver) {
            throw RealDriverError.missing(reason: missing)
        }
        guard let fuseExecutable = RealDriverToolchain.fuseServer() else {
            throw RealDriverError.missing(reason: "gesture-evdev-fuse is not built")
        }
        let shim = driver == .libinput ? try RealDriverToolchain.statShim() : nil

        var devices: [(fileName: String, description: EvdevDeviceDescription)]
        switch driver {
        case .wacom:
            devices = [("wacom-pen", .wacomISDv4Pen(screenWidth: width, screenHeight: height))]
        case .evdev:
            devices = [("evdev-pen", .genericTabletPen(screenWidth: width, screenHeight: height)),
                       ("touchscreen", .multitouchScreen(screenWidth: width, screenHeight: height, pressure: true))]
        case .libinput:
            devices = [("huion-pen", .huionPen(screenWidth: width, screenHeight: height)),
                       ("touchscreen", .multitouchScreen(screenWidth: width, screenHeight: height, pressure: touchPressure))]
        }
        let penDescription = devices[0].description
        let touchDescription = devices.count > 1 ? devices[1].description : nil
        switch driver {
        case .wacom:
            penDeviceName = penDescription.name + " stylus"
            tabletDeviceName = nil
        case .evdev:
            penDeviceName = penDescription.name
            tabletDeviceName = nil
        case .libinput:
            // xf86-input-libinput names a tool's device after the tablet, the tool and its serial.
            penDeviceName = penDescription.name + " Pen (0)"
            tabletDeviceName = penDescription.name
        }
        touchDeviceName = touchDescription?.name

        self.driver = driver
        self.width = width
        self.height = height
        let runDirectory = try Self.makeRunDirectory()
        self.runDirectory = runDirectory
        let run = runDirectory.path
        let mountPoint = run + "/evdev"
        do {
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            fuse = try EvdevFuseServer(executable: fuseExecutable, mountPoint: mountPoint, devices: devices,
                                       descriptionDirectory: run)
        } catch {
            try? FileManager.default.removeItem(at: runDirectory)
            throw error
        }

        var launched: (process: Process, guardian: ServerGuardian, reservation: DisplayReservation)?
        var configuration: RealDriverConfiguration?
        do {
            let staticDevices: [(identifier: String, path: String, options: [String: String])]
            switch driver {
            case .wacom:
                staticDevices = [(penDeviceName, mountPoint + "/wacom-pen", ["Type": "stylus"])]
            case .evdev:
                staticDevices = [(penDeviceName, mountPoint + "/evdev-pen", [:]),
                                 (touchDescription?.name ?? "touchscreen", mountPoint + "/touchscreen", [:])]
            case .libinput:
                staticDevices = []
            }
            let written = RealDriverConfiguration(driver: driver, width: width, height: height, runDirectory: run,
                                                  staticDevices: staticDevices)
            configuration = written
            var namespace: LibinputNamespace?
            if driver == .libinput, let shim {
                let prepared = try LibinputNamespace(runDirectory: run, mountPoint: mountPoint, devices: devices)
                try prepared.prepare()
                try prepared.script(shimLibrary: shim).write(toFile: run + "/namespace.sh", atomically: true, encoding: .utf8)
                namespace = prepared
            }
            launched = try Self.launch(installation: installation, configuration: written, inNamespace: namespace != nil,
                                       startupTimeout: startupTimeout)
        } catch {
            fuse?.stop()
            try? FileManager.default.removeItem(at: runDirectory)
            throw error
        }
        guard let launched, let configuration else {
            fuse?.stop()
            try? FileManager.default.removeItem(at: runDirectory)
            throw RealDriverError.cannotPrepare(reason: "the server did not start")
        }
        serverProcess = launched.process
        guardian = launched.guardian
        reservation = launched.reservation
        processID = launched.process.processIdentifier
        displayName = launched.reservation.displayName
        displayNumber = launched.reservation.number
        logURL = URL(fileURLWithPath: configuration.logPath)
        errorOutputURL = URL(fileURLWithPath: configuration.errorOutputPath)

        let keyboardConnection: InputTestConnection
        do {
            keyboardConnection = try InputTestConnection(socketPath: configuration.keyboardSocketPath, connectTimeout: 5)
            pen = RealDriverPen(node: try EvdevNode(path: mountPoint + "/" + devices[0].fileName, description: penDescription))
            touch = try devices.count > 1
                ? RealDriverTouchscreen(node: EvdevNode(path: mountPoint + "/" + devices[1].fileName, description: devices[1].description))
                : nil
        } catch {
            Self.shutDown(process: launched.process, guardian: launched.guardian, reservation: launched.reservation)
            fuse?.stop()
            try? FileManager.default.removeItem(at: runDirectory)
            throw error
        }
        keyboard = VirtualKeyboard(connection: keyboardConnection)
        XInputExtensionAnchor.ensure(displayName: displayName)

        // The devices present from the start: wait until the server has them (the udev backend
        // adds libinput's a moment after the server answers).
        let expected = [driver == .libinput ? tabletDeviceName : penDeviceName, touchDeviceName].compactMap { $0 }
        let deadline = Date().addingTimeInterval(startupTimeout)
        var present = inputDeviceNames()
        while !Set(expected).isSubset(of: present), Date() < deadline {
            usleep(20_000)
            present = inputDeviceNames()
        }
        if let absent = expected.first(where: { !present.contains($0) }) {
            let error = RealDriverError.deviceMissing(display: displayName, device: absent, present: present.sorted(),
                                                      logTail: logTail())
            stop()
            throw error
        }
    }

    deinit {
        stop()
    }

    public var isRunning: Bool {
        serverProcess?.isRunning ?? false
    }

    /// Ends the server, then the FUSE server, and removes the run directory. Safe to call twice.
    public func stop() {
        guard let process = serverProcess else { return }
        serverProcess = nil
        Self.shutDown(process: process, guardian: guardian, reservation: reservation)
        guardian = nil
        keyboard.connection.close()
        pen.node.close()
        touch?.node.close()
        fuse?.stop()
        fuse = nil
        if ProcessInfo.processInfo.environment[HeadlessXorg.keepRunDirectoryVariable] != "1" {
            try? FileManager.default.removeItem(at: runDirectory)
        }
    }

    /// The names of the server's input devices now (XIQueryDevice).
    public func inputDeviceNames() -> Set<String> {
        guard let display = XOpenDisplay(displayName) else { return [] }
        defer { XCloseDisplay(display) }
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display, XIAllDevices, &count) else { return [] }
        defer { XIFreeDeviceInfo(devices) }
        var names: Set<String> = []
        for index in 0..<Int(count) {
            if let name = devices[index].name { names.insert(String(cString: name)) }
        }
        return names
    }

    /// Waits until the server has an input device named `name`; false after `timeout`.
    public func waitForDevice(named name: String, timeout: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !inputDeviceNames().contains(name) {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    /// The last lines of the server's log, for a failure message.
    public func logTail(lines: Int = 40) -> String {
        let text = (try? String(contentsOf: logURL, encoding: .utf8))
            ?? (try? String(contentsOf: errorOutputURL, encoding: .utf8)) ?? "(no log written)"
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// The environment for a child process (xinput, the bridge) that talks to this server.
    public var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = displayName
        environment.removeValue(forKey: "XAUTHORITY")
        return environment
    }

    // MARK: - Starting and stopping

    private static func launch(installation: XorgInstallation, configuration: RealDriverConfiguration, inNamespace: Bool,
                               startupTimeout: Double) throws -> (process: Process, guardian: ServerGuardian, reservation: DisplayReservation) {
        var start = DisplayReservation.searchRange.lowerBound
        for _ in 0..<5 {
            let reservation = try DisplayReservation.reserve(startingAt: start)
            let run = configuration.runDirectory
            let configPath = run + "/xorg.conf"
            let emptyConfigDirectory = run + "/xorg.conf.d"
            try configuration.text.write(toFile: configPath, atomically: true, encoding: .utf8)
            if !FileManager.default.fileExists(atPath: emptyConfigDirectory) {
                try FileManager.default.createDirectory(atPath: emptyConfigDirectory, withIntermediateDirectories: false)
                try "# No snippets: the server has only the devices of xorg.conf.\n"
                    .write(toFile: emptyConfigDirectory + "/00-none.conf", atomically: true, encoding: .utf8)
            }
            guard FileManager.default.createFile(atPath: configuration.errorOutputPath, contents: nil),
                  let errorOutput = FileHandle(forWritingAtPath: configuration.errorOutputPath) else {
                throw RealDriverError.cannotPrepare(reason: "cannot create \(configuration.errorOutputPath)")
            }
            let serverArguments = [
                reservation.displayName, "-config", configPath, "-configdir", emptyConfigDirectory,
                "-logfile", configuration.logPath, "-noreset", "-novtswitch", "-sharevts", "-keeptty",
                "-nolisten", "tcp", "-nolisten", "local",
            ]
            let process = Process()
            if inNamespace, let unshare = XorgInstallation.findExecutable(named: "unshare") {
                process.executableURL = URL(fileURLWithPath: unshare)
                process.arguments = ["--mount", "--propagation", "private", "/bin/sh", run + "/namespace.sh",
                                     installation.serverExecutable] + serverArguments
            } else {
                process.executableURL = URL(fileURLWithPath: installation.serverExecutable)
                process.arguments = serverArguments
            }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = errorOutput
            process.standardError = errorOutput
            try ChildProcessLauncher.run(process)
            try? errorOutput.close()
            let guardian: ServerGuardian
            do {
                guardian = try ServerGuardian(serverProcessID: process.processIdentifier, runDirectory: run)
            } catch {
                shutDown(process: process, guardian: nil, reservation: reservation)
                throw RealDriverError.cannotPrepare(reason: "starting the server's guardian failed: \(error)")
            }
            let deadline = Date().addingTimeInterval(startupTimeout)
            var taken = false
            while true {
                if let display = XOpenDisplay(reservation.displayName) {
                    XCloseDisplay(display)
                    return (process, guardian, reservation)
                }
                if !process.isRunning {
                    process.waitUntilExit()
                    let log = (try? String(contentsOfFile: configuration.logPath, encoding: .utf8)) ?? ""
                    let errors = (try? String(contentsOfFile: configuration.errorOutputPath, encoding: .utf8)) ?? ""
                    shutDown(process: process, guardian: guardian, reservation: reservation)
                    if log.contains("already active") || errors.contains("already active") {
                        taken = true
                        break
                    }
                    let tail = (log.isEmpty ? errors : log + "\n" + errors).split(separator: "\n").suffix(40).joined(separator: "\n")
                    throw RealDriverError.exitedEarly(display: reservation.displayName, status: process.terminationStatus,
                                                      logTail: tail)
                }
                if Date() >= deadline {
                    let log = (try? String(contentsOfFile: configuration.logPath, encoding: .utf8)) ?? ""
                    shutDown(process: process, guardian: guardian, reservation: reservation)
                    throw RealDriverError.notAcceptingConnections(
                        display: reservation.displayName, waited: startupTimeout,
                        logTail: log.split(separator: "\n").suffix(40).joined(separator: "\n"))
                }
                usleep(10_000)
            }
            if taken { start = reservation.number + 1 }
        }
        throw RealDriverError.cannotPrepare(reason: "every display number tried was taken by another X server")
    }

    private static func shutDown(process: Process, guardian: ServerGuardian?, reservation: DisplayReservation) {
        var killedHard = false
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(3)
            while process.isRunning, Date() < deadline { usleep(5_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killedHard = true
            }
        }
        process.waitUntilExit()
        guardian?.dismiss()
        if killedHard { reservation.removeServerLeftovers() }
        reservation.release()
    }

    private static func makeRunDirectory() throws -> URL {
        // Unix socket paths are limited to 107 bytes.
        var base = FileManager.default.temporaryDirectory.path
        if base.utf8.count > 60 { base = "/tmp" }
        var template = Array((base + "/gesturebridge-realdriver-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        guard created != nil else {
            throw RealDriverError.cannotPrepare(reason: "cannot create a run directory in \(base): \(String(cString: strerror(errno)))")
        }
        let path = template.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { String(cString: $0) } ?? "" }
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}
