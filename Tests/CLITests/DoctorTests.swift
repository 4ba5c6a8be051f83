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
        #expect(run.stdout.contains("\"test-pen\" reports pressure 0..1000"))
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
