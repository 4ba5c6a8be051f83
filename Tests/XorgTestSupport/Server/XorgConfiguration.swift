/// The xorg.conf of a headless server: the dummy video card at one fixed mode, and the three
/// inputtest devices listening in the run directory. Nothing is hot-plugged, so the server has
/// exactly these devices whatever the machine has.
struct XorgConfiguration: Sendable {
    let width: Int
    let height: Int
    let runDirectory: String

    var penSocketPath: String { runDirectory + "/pen.sock" }
    var touchSocketPath: String { runDirectory + "/touch.sock" }
    var keyboardSocketPath: String { runDirectory + "/kbd.sock" }
    /// The server's log (`-logfile`), and where its standard output and error go.
    var logPath: String { runDirectory + "/Xorg.log" }
    var errorOutputPath: String { runDirectory + "/Xorg.stderr" }

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
        """
        # Generated for one headless test server; removed when the server stops.
        Section "ServerFlags"
            Option "AutoAddDevices" "false"
            Option "AutoEnableDevices" "false"
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

        Section "InputDevice"
            Identifier "\(VirtualPen.deviceName)"
            Driver "inputtest"
            Option "SocketPath" "\(penSocketPath)"
            Option "DeviceType" "PointerAbsoluteProximity"
            Option "PointerHasPressure" "on"
            Option "PointerButtonCount" "7"
        EndSection

        Section "InputDevice"
            Identifier "\(VirtualTouchscreen.deviceName)"
            Driver "inputtest"
            Option "SocketPath" "\(touchSocketPath)"
            Option "DeviceType" "Touch"
            Option "TouchCount" "\(VirtualTouchscreen.maximumTouches)"
        EndSection

        # A keyboard of its own also keeps the server from looking for the usual kbd driver.
        Section "InputDevice"
            Identifier "\(VirtualKeyboard.deviceName)"
            Driver "inputtest"
            Option "SocketPath" "\(keyboardSocketPath)"
            Option "DeviceType" "Keyboard"
        EndSection

        Section "ServerLayout"
            Identifier "headless-layout"
            Screen "headless-screen"
            InputDevice "\(VirtualPen.deviceName)" "CorePointer"
            InputDevice "\(VirtualTouchscreen.deviceName)" "SendCoreEvents"
            InputDevice "\(VirtualKeyboard.deviceName)" "CoreKeyboard"
        EndSection

        """
    }
}
