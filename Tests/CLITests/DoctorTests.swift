import Foundation
import GestureKit
import Testing
import XorgTestSupport

/// `doctor` on the headless Xorg with the virtual pen and touchscreen.
@Suite("Doctor", .serialized)
struct DoctorTests {
    @Test("on a session with a pen and a touchscreen: pressure devices listed, keys typeable, whether a bridge runs there said, exit 0", .requiresXorg)
    func healthySession() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let run = try GestureBridgeExecutable.run(["doctor"], environment: server.clientEnvironment)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("X11 session on DISPLAY=\(server.displayName)"))
        #expect(run.stdout.contains("\"test-pen\" reports pressure 0..1000; learned"), "\(run.stdout)")
        #expect(!run.stdout.contains("seen pressing"), "X keeps no history of a device's pressure to tell it by: \(run.stdout)")
        #expect(run.stdout.contains("\"test-touch\" reports pressure 0..2047"))
        #expect(run.stdout.contains("key XF86AudioRaiseVolume"))
        #expect(run.stdout.contains("GestureBridge can run here."))
        // Found in review of the service's life: with the service failed, doctor said all was
        // well, and nothing said no bridge listened.
        #expect(run.stdout.contains("  note     no gesture-bridge runs on DISPLAY=\(server.displayName)"), "\(run.stdout)")

        let bridge = try BackgroundBridge(["run", "--dry-run", "--no-watch"], environment: server.clientEnvironment)
        defer { bridge.stop() }
        #expect(bridge.waitUntilListening())
        let running = try GestureBridgeExecutable.run(["doctor"], environment: server.clientEnvironment).stdout
        #expect(running.contains("  ok       a gesture-bridge runs on DISPLAY=\(server.displayName) (process \(bridge.process.processIdentifier))"), "\(running)")
        #expect(!running.contains("no gesture-bridge runs"), "\(running)")
    }

    /// A learned-state file for `device` in `directory`, named as the bridge names it.
    static func writeState(_ body: String, device: String, in directory: String) throws {
        var hash: UInt32 = 2_166_136_261
        for byte in device.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let readable = String(device.unicodeScalars.prefix(60).map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? Character(scalar) : "-"
        })
        let hex = String(hash, radix: 16)
        let name = readable + "-" + String(repeating: "0", count: 8 - hex.count) + hex + ".learned"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try ("version 1\ndevice \(device)\n" + body).write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
    }

    @Test("devices --json and doctor show what was learned per pressure device, from how many contacts, and calibrated", .requiresXorg)
    func learnedLevels() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-doctor-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        var environment = server.clientEnvironment
        environment["HOME"] = home
        environment["XDG_STATE_HOME"] = home + "/state"
        environment["XDG_CONFIG_HOME"] = home + "/config"
        try Self.writeState("""
            levels 0.368 0.263 0.21
            moving false
            calibrated false
            contacts 40 3
            ordinary 0.18 0.12 0.1 0.08 0.06 0.15 0.17 0.09 0.11 0.13 0.14 0.16
            deliberate 0.44 0.45 0.43

            """, device: "test-pen", in: home + "/state/gesture-bridge")

        let listing = try GestureBridgeExecutable.run(["devices", "--json"], environment: environment)
        #expect(listing.status == 0, "\(listing.stderr)")
        let devices = try decodedLines(DeviceLine.self, listing.stdout)
        let pen = try #require(devices.first { $0.name == "test-pen" }, "\(listing.stdout)")
        let touch = try #require(devices.first { $0.name == "test-touch" })
        // The keys there were stay as they were.
        #expect(pen.kind == "pen" && pen.listened == true && pen.pressure != nil)
        let learned = try #require(pen.learned?.wrappedValue, "\(pen)")
        #expect(learned.threshold == 0.368)
        #expect(learned.release == 0.263)
        #expect(learned.ordinary == 0.21)
        #expect(learned.moved)
        #expect(!learned.calibrated)
        #expect(learned.ordinaryContacts == 40)
        #expect(learned.deliberatePresses == 3)
        // Nothing kept for the touchscreen: today's levels, from no contact.
        let fresh = try #require(touch.learned?.wrappedValue, "\(touch)")
        #expect(fresh.threshold == 0.7 && !fresh.moved)
        #expect(fresh.ordinaryContacts == 0 && fresh.deliberatePresses == 0)
        // A device without pressure learns nothing: its `learned` is there, and null.
        for device in devices where device.pressure == nil {
            #expect(device.learned != nil && device.learned?.wrappedValue == nil, "\(device)")
        }

        // The table's LEARNED section: a line a pressure device, with its numbers.
        let table = try GestureBridgeExecutable.run(["devices"], environment: environment)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.split(separator: "\n").contains { $0.contains("test-pen: threshold 0.368") && $0.contains(" 40 ") },
                "\(table.stdout)")

        let doctor = try GestureBridgeExecutable.run(["doctor"], environment: environment)
        #expect(doctor.status == 0, "\(doctor.stdout)\(doctor.stderr)")
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        let penLine = try #require(lines.first { $0.contains("\"test-pen\" reports pressure") }, "\(doctor.stdout)")
        #expect(penLine.contains("0.368") && penLine.contains("0.263") && penLine.contains("0.21"), "\(penLine)")
        #expect(penLine.contains(" 40 ") && penLine.contains(" 3 "), "\(penLine)")
        #expect(lines.contains { $0.contains("\"test-touch\" reports pressure") && $0.contains("nothing learned") }, "\(doctor.stdout)")

        // Calibrated (as `calibrate --write` marks it): learning no longer applies.
        try Self.writeState("""
            levels none
            moving false
            calibrated true
            contacts 5 0
            ordinary 0.1 0.1 0.1 0.1 0.1
            deliberate \n
            """, device: "test-touch", in: home + "/state/gesture-bridge")
        let again = try GestureBridgeExecutable.run(["devices", "--json"], environment: environment)
        let calibrated = try decodedLines(DeviceLine.self, again.stdout).first { $0.name == "test-touch" }?.learned?.wrappedValue
        #expect(calibrated?.calibrated == true && calibrated?.moved == false, "\(again.stdout)")
        #expect(calibrated?.ordinaryContacts == 5)
    }

    @Test("a key that is no keysym and a broken config are problems, with what to do", .requiresXorg)
    func problemsFound() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let config = try GestureBridgeExecutable.temporaryFile("""
            bindings:
              - {name: undo, gesture: squeeze, action: {key: ctrl+Zee}}
            """, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let run = try GestureBridgeExecutable.run(["doctor", "--config", config], environment: server.clientEnvironment)
        #expect(run.status == 1)
        // A key X does not know is a config error where it is written, as `check` and `run` say.
        #expect(run.stdout.contains("PROBLEM  config \(config) is broken"), "\(run.stdout)")
        #expect(run.stdout.contains("\(config):2:50: error: unknown key `Zee` in `ctrl+Zee`"), "\(run.stdout)")
        #expect(run.stdout.contains("1 problem to fix first."))

        let broken = try GestureBridgeExecutable.temporaryFile("bindings: 3\n", suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let second = try GestureBridgeExecutable.run(["doctor", "--config", broken], environment: server.clientEnvironment)
        #expect(second.status == 1)
        #expect(second.stdout.contains("is broken") && second.stdout.contains(":1:11: error:"))

        // A config anyone may change: its commands would run as the user.
        let open = try GestureBridgeExecutable.temporaryFile("bindings:\n  - {name: a, gesture: deep-press}\n", suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: open) }
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: open)
        let third = try GestureBridgeExecutable.run(["doctor", "--config", open], environment: server.clientEnvironment)
        #expect(third.status == 1)
        #expect(third.stdout.contains("refusing the config") && third.stdout.contains("chmod go-w \(open)"), "\(third.stdout)")
    }

    static let mouseKnob = """
        bindings:
          - name: mouse-knob
            gesture: knob
            devices: [mouse]
            center: [500, 400]
            clockwise: {scroll: up}
          - name: pen-press
            gesture: deep-press
            devices: [pen]
            action: {click: right}
        """

    @Test("on Xvfb, a mouse and no pressure: the default config would do nothing, which is a problem, with what to connect or bind; exit 1", .requiresXvfb)
    func noPressureDevices() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let run = try GestureBridgeExecutable.run(["doctor"], environment: server.clientEnvironment)
        #expect(run.status == 1 && !run.crashed, "\(run.stdout)\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("  ok       X11 session on DISPLAY=\(server.displayName)"), "\(run.stdout)")
        #expect(lines.contains("  ok       XTest: the bridge can send clicks, keys and scrolling"))
        #expect(lines.contains { $0.hasPrefix("  note     no compositor:") })
        #expect(lines.contains { $0.hasPrefix("  note     no device reports pressure, so these bindings never fire: right-click. ")
            && $0.contains("a pen tablet or a pressure-sensing touchscreen") && $0.contains("\"Abs Pressure\"") })
        #expect(lines.contains("  note     no binding listens to mouse \"Xvfb mouse\""))
        let problems = lines.filter { $0.hasPrefix("  PROBLEM  ") }
        #expect(problems.count == 1, "\(run.stdout)")
        #expect(problems.first?.contains("no binding of this config listens to any device here, so the bridge would do nothing") == true)
        #expect(problems.first?.contains("`devices: [mouse]`") == true, "says what to bind: \(problems)")
        #expect(lines.last == "1 problem to fix first.")
        #expect(!run.stdout.contains("can run here"))
        #expect(!run.stdout.contains("reports pressure 0.."))
        #expect(!run.stdout.contains("has a fixed threshold"), "the built-in default learns")
    }

    @Test("on Xvfb with a config that binds the mouse: the pressure binding is named as idle, nothing is a problem; exit 0", .requiresXvfb)
    func mouseBindingWithoutPressure() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let config = try GestureBridgeExecutable.temporaryFile(Self.mouseKnob, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let run = try GestureBridgeExecutable.run(["doctor", "--config", config], environment: server.clientEnvironment)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("  ok       config \(config): 2 bindings"))
        #expect(run.stdout.contains("  note     no device reports pressure, so these bindings never fire: pen-press. "))
        // A deep press written without `threshold` has the fixed 0.75: learning leaves it alone.
        #expect(run.stdout.contains("  note     binding \"pen-press\" has a fixed threshold (0.75): the bridge does not learn it"), "\(run.stdout)")
        #expect(!run.stdout.contains("PROBLEM"), "\(run.stdout)")
        #expect(!run.stdout.contains("no binding listens to"))
        #expect(run.stdout.hasSuffix("GestureBridge can run here.\n"))
    }

    @Test("on Xvfb with a config naming a device that is not connected: a note with the name nearest it; exit 0", .requiresXvfb)
    func misspeltDevice() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let config = try GestureBridgeExecutable.temporaryFile(Self.mouseKnob + """

              - name: tablet-press
                gesture: deep-press
                devices: [{name: "Xvfb mose"}]
                action: {click: right}
            """, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let run = try GestureBridgeExecutable.run(["doctor", "--config", config], environment: server.clientEnvironment)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("  note     binding tablet-press names the device \"Xvfb mose\", which is not connected (did you mean \"Xvfb mouse\"?): it listens to none by that name until one comes; `gesture-bridge devices` shows what each device reports\n"),
                "\(run.stdout)")
    }

    @Test("on Xvfb without XTest: the bridge could not act, a problem saying which extension to enable; exit 1", .requiresXvfb)
    func noXTest() throws {
        let server = try XvfbDisplay(extraArguments: ["-extension", "XTEST"])
        defer { server.stop() }
        let config = try GestureBridgeExecutable.temporaryFile(Self.mouseKnob, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let run = try GestureBridgeExecutable.run(["doctor", "--config", config], environment: server.clientEnvironment)
        #expect(run.status == 1 && !run.crashed, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("  PROBLEM  the X server has no XTest extension: the bridge can recognize gestures but not act on them (enable the XTEST extension in the server)"))
        #expect(run.stdout.hasSuffix("1 problem to fix first.\n"))
    }

    @Test("without an X session doctor says what to do and exits 1")
    func noSession() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = "wayland-0"
        environment["XDG_SESSION_TYPE"] = "wayland"
        let run = try GestureBridgeExecutable.run(["doctor"], environment: environment)
        #expect(run.status == 1 && !run.crashed)
        #expect(run.stdout.contains("PROBLEM  this is a Wayland session"))
        #expect(run.stdout.contains("X11-only"))
    }
}
