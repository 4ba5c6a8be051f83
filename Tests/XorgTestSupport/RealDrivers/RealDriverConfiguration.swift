/// The X input drivers people run, each tested on emulated evdev nodes.
public enum RealDriver: String, CaseIterable, Sendable, CustomStringConvertible {
    /// xf86-input-wacom, an ISDv4-like Wacom pen configured statically.
    case wacom
    /// xf86-input-evdev, a pen tablet and a pressure multitouch screen configured statically.
    case evdev
    /// xf86-input-libinput, a Huion-like pen and a multitouch screen added through udev.
    case libinput

    public var description: String { rawValue }

    /// The driver's module, relative to the X modules directory.
    var moduleFile: String { "input/\(rawValue)_drv.so" }

    /// The Debian package that installs it.
    public var debianPackage: String { "xserver-xorg-input-\(rawValue)" }
}

/// The xorg.conf of a real-driver server: the dummy card at one fixed mode, the inputtest
/// keyboard, and the driver's devices on the emulated nodes (statically for wacom and evdev;
/// through the udev backend and InputClass sections for libinput, which gets a tablet tool's
/// device only that way).
struct RealDriverConfiguration: Sendable {
    let driver: RealDriver
    let width: Int
    let height: Int
    let runDirectory: String
    /// Identifier (the X device's name) and node path of each statically configured device.
    let staticDevices: [(identifier: String, path: String, options: [String: String])]

    var keyboardSocketPath: String { runDirectory + "/kbd.sock" }
    var logPath: String { runDirectory + "/Xorg.log" }
    var errorOutputPath: String { runDirectory + "/Xorg.stderr" }
    static let keyboardName = "test-kbd"

    private var modeName: String { "\(width)x\(height)" }

    /// As HeadlessXorg's: blanking that does not match the CVT reduced-blanking pattern.
    private var modeline: String {
        let horizontalTotal = width + 200
        let verticalTotal = height + 30
        let clock = (Double(horizontalTotal * verticalTotal * 60) / 1_000_000 * 100).rounded() / 100
        return "\"\(modeName)\" \(clock) \(width) \(width + 16) \(width + 64) \(horizontalTotal)"
            + " \(height) \(height + 1) \(height + 4) \(verticalTotal)"
    }

    var text: String {
        let hotplug = driver == .libinput
        var sections = """
            # Generated for one real-driver test server (\(driver)); removed when the server stops.
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
                VideoRam \(max(65536, width * height * 4 / 1024 * 2))
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

            Section "InputDevice"
                Identifier "\(Self.keyboardName)"
                Driver "inputtest"
                Option "SocketPath" "\(keyboardSocketPath)"
                Option "DeviceType" "Keyboard"
            EndSection

            """
        for device in staticDevices {
            sections += """
                Section "InputDevice"
                    Identifier "\(device.identifier)"
                    Driver "\(driver.rawValue)"
                    Option "Device" "\(device.path)"

                """
            for (key, value) in device.options.sorted(by: { $0.key < $1.key }) {
                sections += "    Option \"\(key)\" \"\(value)\"\n"
            }
            sections += "EndSection\n\n"
        }
        if hotplug {
            for (match, name) in [("MatchIsTablet", "tablet"), ("MatchIsTouchscreen", "touchscreen")] {
                sections += """
                    Section "InputClass"
                        Identifier "gesturebridge \(name) on libinput"
                        \(match) "on"
                        MatchDevicePath "\(LibinputNamespace.nodeDirectory)/event*"
                        Driver "libinput"
                    EndSection

                    """
            }
        }
        sections += """
            Section "ServerLayout"
                Identifier "headless-layout"
                Screen "headless-screen"
                InputDevice "\(Self.keyboardName)" "CoreKeyboard"

            """
        // The first is the core pointer: with none named, the server adds a pointer of the
        // config a second time as its core pointer.
        for (index, device) in staticDevices.enumerated() {
            sections += "    InputDevice \"\(device.identifier)\" \"\(index == 0 ? "CorePointer" : "SendCoreEvents")\"\n"
        }
        sections += "EndSection\n"
        return sections
    }
}
