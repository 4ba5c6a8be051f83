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

extension XorgConfiguration {
    /// A real-driver server's: the inputtest keyboard, and the driver's devices on the emulated
    /// nodes (statically for wacom and evdev; through the udev backend and InputClass sections
    /// for libinput, which gets a tablet tool's device only that way).
    /// - Parameter staticDevices: the X device's name, node path and driver options of each
    ///   statically configured device; the first is the core pointer (with none named, the
    ///   server adds a pointer of the config a second time as its core pointer).
    static func realDriver(
        _ driver: RealDriver, width: Int, height: Int, runDirectory: String,
        staticDevices: [(identifier: String, path: String, options: [XorgOption])]
    ) -> XorgConfiguration {
        let keyboard = XorgInputDevice.inputTest(
            VirtualKeyboard.deviceName, socketPath: socketPath(VirtualKeyboard.socketFileName, in: runDirectory),
            type: "Keyboard", layoutRole: .coreKeyboard)
        let nodes = staticDevices.enumerated().map { index, device in
            XorgInputDevice(
                identifier: device.identifier, driver: driver.rawValue,
                options: [XorgOption("Device", device.path)] + device.options,
                layoutRole: index == 0 ? .corePointer : .sendCoreEvents)
        }
        let hotplug = driver == .libinput
        let inputClasses = hotplug
            ? [("MatchIsTablet", "tablet"), ("MatchIsTouchscreen", "touchscreen")].map { match, name in
                XorgInputClass(
                    identifier: "gesturebridge \(name) on libinput", match: match,
                    devicePathPattern: "\(LibinputNamespace.nodeDirectory)/event*", driver: "libinput")
            }
            : []
        return XorgConfiguration(
            title: "Generated for one real-driver test server (\(driver)); removed when the server stops.",
            width: width, height: height, runDirectory: runDirectory, hotplug: hotplug,
            devices: [keyboard] + nodes, inputClasses: inputClasses)
    }
}
