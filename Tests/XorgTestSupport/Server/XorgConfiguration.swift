/// The xorg.conf of a test server: the dummy video card at one fixed mode and the input devices
/// it is given, with its run directory's files (log, error output, device sockets). The
/// inputtest server (`inputTest`) and the real-driver ones (`realDriver`) differ only in their
/// devices and whether the server adds devices itself (hot-plug).
struct XorgConfiguration: Sendable {
    /// The first line, a comment saying what the file is for.
    let title: String
    let width: Int
    let height: Int
    let runDirectory: String
    /// Whether the server adds and enables the devices udev reports (`AutoAddDevices`).
    let hotplug: Bool
    /// In the order of their sections and of the server layout.
    let devices: [XorgInputDevice]
    let inputClasses: [XorgInputClass]

    /// The server's log (`-logfile`), and where its standard output and error go.
    var logPath: String { runDirectory + "/Xorg.log" }
    var errorOutputPath: String { runDirectory + "/Xorg.stderr" }
    var path: String { runDirectory + "/xorg.conf" }
    /// An empty config directory (`-configdir`): the machine's xorg.conf.d snippets must not add devices.
    var snippetDirectory: String { runDirectory + "/xorg.conf.d" }

    /// Where an inputtest device of this server listens.
    static func socketPath(_ fileName: String, in runDirectory: String) -> String {
        runDirectory + "/" + fileName
    }

    /// A 60 Hz mode for exactly the requested size. The blanking must not match the CVT
    /// reduced-blanking pattern (total = width + 160, sync end = width + 80): the server then
    /// rejects the mode for a monitor without reduced blanking and silently picks a built-in one.
    private var modeline: String {
        let horizontalTotal = width + 200
        let verticalTotal = height + 30
        let pixelClockMHz = Double(horizontalTotal * verticalTotal * 60) / 1_000_000
        let clock = (pixelClockMHz * 100).rounded() / 100
        return "\"\(modeName)\" \(clock) \(width) \(width + 16) \(width + 64) \(horizontalTotal)"
            + " \(height) \(height + 1) \(height + 4) \(verticalTotal)"
    }

    private var modeName: String { "\(width)x\(height)" }

    /// The dummy card's memory in KiB: the framebuffer at 32 bits a pixel, with room to spare.
    private var videoRAMKiB: Int {
        max(65536, width * height * 4 / 1024 * 2)
    }

    var text: String {
        var sections = """
            # \(title)
            Section "ServerFlags"
                Option "AutoAddDevices" "\(hotplug)"
                Option "AutoEnableDevices" "\(hotplug)"
                Option "AutoAddGPU" "false"
                Option "DontVTSwitch" "true"
                Option "BlankTime" "0"
                Option "StandbyTime" "0"
                Option "SuspendTime" "0"
                Option "OffTime" "0"
            EndSection

            Section "Device"
                Identifier "headless-card"
                Driver "dummy"
                VideoRam \(videoRAMKiB)
            EndSection

            Section "Monitor"
                Identifier "headless-monitor"
                HorizSync 5.0 - 1000.0
                VertRefresh 5.0 - 200.0
                Modeline \(modeline)
            EndSection

            Section "Screen"
                Identifier "headless-screen"
                Device "headless-card"
                Monitor "headless-monitor"
                DefaultDepth 24
                SubSection "Display"
                    Depth 24
                    Modes "\(modeName)"
                    Virtual \(width) \(height)
                EndSubSection
            EndSection


            """
        for device in devices {
            sections += "Section \"InputDevice\"\n"
            sections += "    Identifier \"\(device.identifier)\"\n"
            sections += "    Driver \"\(device.driver)\"\n"
            for option in device.options {
                sections += "    Option \"\(option.name)\" \"\(option.value)\"\n"
            }
            sections += "EndSection\n\n"
        }
        for inputClass in inputClasses {
            sections += """
                Section "InputClass"
                    Identifier "\(inputClass.identifier)"
                    \(inputClass.match) "on"
                    MatchDevicePath "\(inputClass.devicePathPattern)"
                    Driver "\(inputClass.driver)"
                EndSection


                """
        }
        sections += """
            Section "ServerLayout"
                Identifier "headless-layout"
                Screen "headless-screen"

            """
        for device in devices {
            sections += "    InputDevice \"\(device.identifier)\" \"\(device.layoutRole.rawValue)\"\n"
        }
        sections += "EndSection\n"
        return sections
    }
}

/// An `InputDevice` section of an xorg.conf, and the device's place in the server layout.
struct XorgInputDevice: Sendable {
    /// The X device's name.
    let identifier: String
    let driver: String
    let options: [XorgOption]
    let layoutRole: XorgLayoutRole

    /// An inputtest device listening on `socketPath`.
    static func inputTest(_ identifier: String, socketPath: String, type: String, options: [XorgOption] = [],
                          layoutRole: XorgLayoutRole) -> XorgInputDevice {
        XorgInputDevice(
            identifier: identifier, driver: "inputtest",
            options: [XorgOption("SocketPath", socketPath), XorgOption("DeviceType", type)] + options,
            layoutRole: layoutRole)
    }
}

/// `Option "name" "value"` in a section.
struct XorgOption: Sendable {
    let name: String
    let value: String

    init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// How the server layout attaches a device.
enum XorgLayoutRole: String, Sendable {
    case corePointer = "CorePointer"
    case sendCoreEvents = "SendCoreEvents"
    case coreKeyboard = "CoreKeyboard"
}

/// An `InputClass` section: a driver for the hot-plugged devices it matches.
struct XorgInputClass: Sendable {
    let identifier: String
    /// The match option, as `MatchIsTablet`.
    let match: String
    let devicePathPattern: String
    let driver: String
}

extension XorgConfiguration {
    /// The inputtest server's: a pressure pen, an XI 2.2 touchscreen and a keyboard, listening
    /// in the run directory (a keyboard of its own also keeps the server from looking for the
    /// usual kbd driver), and with `mouse`, a plain mouse after them. Nothing is hot-plugged,
    /// so the server has exactly these devices whatever the machine has.
    static func inputTest(width: Int, height: Int, runDirectory: String, mouse: Bool = false,
                          mouseName: String = VirtualMouse.deviceName) -> XorgConfiguration {
        let mouseDevice = XorgInputDevice.inputTest(
            mouseName, socketPath: socketPath(VirtualMouse.socketFileName, in: runDirectory), type: "Pointer",
            options: [XorgOption("PointerButtonCount", "7"), XorgOption("AccelerationScheme", "none")],
            layoutRole: .sendCoreEvents)
        return XorgConfiguration(
            title: "Generated for one headless test server; removed when the server stops.",
            width: width, height: height, runDirectory: runDirectory, hotplug: false,
            devices: [
                .inputTest(
                    VirtualPen.deviceName, socketPath: socketPath(VirtualPen.socketFileName, in: runDirectory),
                    type: "PointerAbsoluteProximity",
                    options: [XorgOption("PointerHasPressure", "on"), XorgOption("PointerButtonCount", "7")],
                    layoutRole: .corePointer),
                .inputTest(
                    VirtualTouchscreen.deviceName,
                    socketPath: socketPath(VirtualTouchscreen.socketFileName, in: runDirectory), type: "Touch",
                    options: [XorgOption("TouchCount", "\(VirtualTouchscreen.maximumTouches)")],
                    layoutRole: .sendCoreEvents),
                .inputTest(
                    VirtualKeyboard.deviceName, socketPath: socketPath(VirtualKeyboard.socketFileName, in: runDirectory),
                    type: "Keyboard", layoutRole: .coreKeyboard),
            ] + (mouse ? [mouseDevice] : []),
            inputClasses: [])
    }
}
