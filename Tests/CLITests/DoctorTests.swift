import Foundation
import Testing
import XorgTestSupport

/// `doctor` on the headless Xorg with the virtual pen and touchscreen.
@Suite("Doctor", .serialized)
struct DoctorTests {
    @Test("on a session with a pen and a touchscreen: pressure devices listed, keys typeable, exit 0", .requiresXorg)
    func healthySession() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let run = try GestureBridgeExecutable.run(["doctor"], environment: server.clientEnvironment)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("X11 session on DISPLAY=\(server.displayName)"))
        #expect(run.stdout.contains("\"test-pen\" reports pressure 0..1000, not yet seen pressing"), "\(run.stdout)")
        #expect(run.stdout.contains("\"test-touch\" reports pressure 0..2047"))
        #expect(run.stdout.contains("key XF86AudioRaiseVolume"))
        #expect(run.stdout.contains("GestureBridge can run here."))
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
        #expect(run.stdout.contains("PROBLEM  binding undo: \"Zee\" is not an X keysym name"))
        #expect(run.stdout.contains("key Control_L can be typed"))
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
        #expect(!run.stdout.contains("PROBLEM"), "\(run.stdout)")
        #expect(!run.stdout.contains("no binding listens to"))
        #expect(run.stdout.hasSuffix("GestureBridge can run here.\n"))
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
