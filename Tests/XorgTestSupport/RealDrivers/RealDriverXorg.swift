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
    public let width: Int
    public let height: Int
    public let runDirectory: URL

    public let pen: RealDriverPen
    public let touch: RealDriverTouchscreen?
    public let keyboard: VirtualKeyboard
    /// The X device that posts the pen's events (under libinput: once the pen has come near).
    public let penDeviceName: String
    /// Under libinput, the tablet's own device (no axes), present from the start; else nil.
    public let tabletDeviceName: String?
    public let touchDeviceName: String?

    private let server: XorgServerProcess
    private let fuse: EvdevFuseServer

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
        let runDirectory = try XorgRunDirectory.make(prefix: "gesturebridge-realdriver")
        self.runDirectory = runDirectory
        let run = runDirectory.path
        let mountPoint = run + "/evdev"
        let fuse: EvdevFuseServer
        do {
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            fuse = try EvdevFuseServer(executable: fuseExecutable, mountPoint: mountPoint, devices: devices,
                                       descriptionDirectory: run)
        } catch {
            XorgRunDirectory.remove(runDirectory, evenIfKept: true)
            throw error
        }

        let configuration: XorgConfiguration
        let server: XorgServerProcess
        do {
            let staticDevices: [(identifier: String, path: String, options: [XorgOption])]
            switch driver {
            case .wacom:
                staticDevices = [(penDeviceName, mountPoint + "/wacom-pen", [XorgOption("Type", "stylus")])]
            case .evdev:
                staticDevices = [(penDeviceName, mountPoint + "/evdev-pen", []),
                                 (touchDescription?.name ?? "touchscreen", mountPoint + "/touchscreen", [])]
            case .libinput:
                staticDevices = []
            }
            configuration = .realDriver(driver, width: width, height: height, runDirectory: run,
                                        staticDevices: staticDevices)
            var launcher: [String] = []
            if driver == .libinput, let shim {
                let namespace = try LibinputNamespace(runDirectory: run, mountPoint: mountPoint, devices: devices)
                try namespace.prepare()
                try namespace.script(shimLibrary: shim).write(toFile: run + "/namespace.sh", atomically: true, encoding: .utf8)
                if let unshare = XorgInstallation.findExecutable(named: "unshare") {
                    launcher = [unshare, "--mount", "--propagation", "private", "/bin/sh", run + "/namespace.sh"]
                }
            }
            server = try XorgServerProcess.launch(installation: installation, configuration: configuration,
                                                  launcher: launcher, startupTimeout: startupTimeout)
        } catch {
            fuse.stop()
            XorgRunDirectory.remove(runDirectory, evenIfKept: true)
            throw error
        }
        self.server = server
        self.fuse = fuse
        displayName = server.displayName

        let keyboardConnection: InputTestConnection
        do {
            keyboardConnection = try InputTestConnection(
                socketPath: XorgConfiguration.socketPath(VirtualKeyboard.socketFileName, in: run), connectTimeout: 5)
            pen = RealDriverPen(node: try EvdevNode(path: mountPoint + "/" + devices[0].fileName, description: penDescription))
            touch = try devices.count > 1
                ? RealDriverTouchscreen(node: EvdevNode(path: mountPoint + "/" + devices[1].fileName, description: devices[1].description))
                : nil
        } catch {
            server.stop()
            fuse.stop()
            XorgRunDirectory.remove(runDirectory, evenIfKept: true)
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

    /// Ends the server, then the FUSE server, and removes the run directory. Safe to call twice.
    public func stop() {
        guard server.stop() else { return }
        keyboard.connection.close()
        pen.node.close()
        touch?.node.close()
        fuse.stop()
        XorgRunDirectory.remove(runDirectory)
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
        server.configuration.logTail(lines: lines)
    }
}
