import Foundation
import CX11
import Glibc
import GestureKit
import Testing
@testable import X11Bridge
import XorgTestSupport

@Suite("The X connection on a virtual framebuffer", .requiresXvfb)
final class XConnectionTests: XvfbSuite {
    @Test("opens with XInput 2.2 and XTest, and finds no pen or touchscreen on Xvfb")
    func opens() throws {
        #expect(connection.xinputVersion >= XConnection.requiredXInput)
        #expect(connection.hasXTest)
        #expect(connection.screenSize == ScreenSize(width: 1024, height: 768))
        let catalog = DeviceCatalog.query(connection)
        // Xvfb has only the masters, the XTEST devices and its own pointer and keyboard.
        #expect(catalog.devices.contains { $0.name == "Virtual core XTEST pointer" && $0.kind == nil })
        #expect(!catalog.contactSources.contains { $0.name.contains("XTEST") })
    }

    @Test("a refused request comes back as an error value and the process carries on")
    func errorsAreCollected() throws {
        // The server refuses hierarchy events for XIAllMasterDevices (BadValue).
        let wrong = XI2EventMask(device: XIAllMasterDevices, events: [XI_HierarchyChanged])
        var failure: BridgeSetupError?
        do {
            try connection.select([wrong], on: connection.root)
        } catch {
            failure = error
        }
        guard case .selectionFailed(let detail) = failure else {
            Issue.record("expected the selection to fail, got \(String(describing: failure))")
            return
        }
        #expect(detail.contains("BadValue"))
        try connection.select([.rootListening], on: connection.root)
    }

    @Test("a server on this machine is known as one: its timestamps share the bridge's clock")
    func local() {
        #expect(connection.isLocal)
    }

    /// Found in review: a dock or a hub reset removes devices while the bridge reads the list;
    /// the refusal of a query about one gone made the bridge let go of everything it held.
    @Test("a query about a device gone is refused without an error kept; an error of a request before it is kept")
    func goneDeviceQuery() throws {
        connection.selectUnchecked(XI2EventMask(device: XIAllMasterDevices, events: [XI_HierarchyChanged]), on: connection.root)
        #expect(DeviceCatalog.currentValuators(of: 250, on: connection) == nil)
        connection.sync()
        let errors = connection.takeErrors()
        #expect(errors.count == 1 && errors.first?.errorCode == XProtocolError.badValue, "only the selection's: \(errors)")
    }

    /// Found in review: a pen unplugged mid-stroke, its motion unheard, is released by X and
    /// removed before the selection the bridge makes for that release arrives; the refusal let
    /// go of everything the bridge held on other devices.
    @Test("a device's selection refused because the device is gone is taken back; other errors are not")
    func goneDeviceSelection() throws {
        let listener = InputListener(connection: connection)
        listener.selectRawInput(of: 250)
        connection.sync()
        let errors = connection.takeErrors()
        #expect(errors.count == 1, "the server refused it: \(errors)")
        #expect(listener.absorb(errors).isEmpty)
        let other = XProtocolError(errorCode: 2, requestCode: 1, minorCode: 0, resource: 0, serial: 7, text: "BadValue")
        #expect(listener.absorb([other]) == [other])
    }

    /// Found in review: a pen unplugged during its kept stroke is gone when the bridge lets go
    /// of its own grab of it at the stroke's end; that refusal let go of everything else held.
    @Test("the ungrab of a kept stroke's device refused because the device is gone is taken back")
    func goneDeviceUngrab() throws {
        let ownership = PointerOwnership(connection: connection) { _ in }
        ownership.letGo(250)
        connection.sync()
        let errors = connection.takeErrors()
        #expect(errors.count == 1, "the server refused it: \(errors)")
        #expect(ownership.absorb(errors).isEmpty)
    }

    /// Found in review under a slowed bridge: Xlib keeps a lost connection's requests in its
    /// 16 KiB buffer, and the one that would overflow it crashed inside Xlib: the bridge,
    /// drawing as the server went, died of a bad pointer instead of exiting with status 69.
    @Test("once the connection is lost the feedback sends nothing: a burst of rings and pulses drawn after it does not crash")
    func feedbackAfterLoss() throws {
        let overlay = try FeedbackOverlay(connection: connection)
        let pen = ContactKey(device: 2, contact: 0)
        overlay.show(.pulse(pen, at: Point(x: 100, y: 100), time: 0), now: 0)
        connection.sync()
        // The server's end of the socket as a crash leaves it: the next round trip finds it gone.
        #expect(Glibc.shutdown(connection.fileDescriptor, Int32(SHUT_RDWR)) == 0)
        connection.sync()
        #expect(connection.isLost)
        for index in 0..<3000 {
            let now = Double(index) * 0.016
            overlay.show(.progress(pen, at: Point(x: Double(100 + index % 300), y: 200), fraction: Double(index % 10) / 10), now: now)
            if index % 50 == 0 { overlay.show(.pulse(pen, at: Point(x: 300, y: 300), time: now), now: now) }
            overlay.tick(now: now)
        }
        overlay.close()
    }

    @Test("a refused request with a reply is an error too, never taken for a lost connection")
    func replyErrors() throws {
        let missing: Window = 0x7fff_fff0
        var attributes = XWindowAttributes()
        var status: Int32 = 1
        let replyErrors = connection.checked { status = XGetWindowAttributes(connection.display, missing, &attributes) }
        #expect(status == 0)
        #expect(replyErrors.map(\.errorCode) == [Int(BadWindow)])
        #expect(!connection.isLost)
        // An error of a request without a reply arrives in the loop's next look at the socket,
        // as the event loop gets it: the socket is readable and no event is there.
        XMapWindow(connection.display, missing)
        connection.flush()
        var descriptor = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
        #expect(poll(&descriptor, 1, 2000) == 1)
        var gotEvent = false
        if connection.nextEvent(reading: true) != nil { gotEvent = true }
        #expect(!gotEvent, "an error is not an event")
        connection.sync()
        #expect(connection.takeErrors().map(\.errorCode) == [Int(BadWindow)])
        #expect(!connection.isLost)
    }
}

@Suite("Where GestureBridge can run")
struct DisplayCheckTests {
    @Test("a display that is not there is a clear error, not a crash")
    func cannotOpen() {
        XlibThreads.initialize()
        #expect(throws: BridgeSetupError.cannotOpenDisplay(":4093")) {
            try XConnection.open(name: ":4093", requirements: .init(xtest: false))
        }
    }

    /// Found in review of nested servers: a screen number the server does not have was told to
    /// check that the server runs and may be connected to.
    @Test("a screen number the display does not have is named, with the screens it has", .requiresXorg)
    func noSuchScreen() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        XlibThreads.initialize()
        #expect(throws: BridgeSetupError.noSuchScreen(display: server.displayName, screen: 5, screens: 1)) {
            try XConnection.open(name: server.displayName + ".5", requirements: .init(xtest: false))
        }
        #expect(throws: BridgeSetupError.cannotOpenDisplay(":4093.1")) {
            try XConnection.open(name: ":4093.1", requirements: .init(xtest: false))
        }
        let screenZero = try XConnection.open(name: server.displayName + ".0", requirements: .init(xtest: false))
        screenZero.close()
    }

    /// Found in review of remote desktops: on x2go's server (XInput 1.3) every login listed a
    /// failed start, and the service was started again five times, though the server never
    /// will have XInput 2.2. (Xvfb keeps XInput whatever its options: no live server lacks it.)
    @Test("a server without XInput 2.2 is a session the bridge cannot run in: the status the service does not start again on, and the autostart entry's bridge exits 0 on")
    func withoutXInput() throws {
        for error in [BridgeSetupError.xinputMissing(display: ":50"), .xinputTooOld(display: ":50", major: 1, minor: 3)] {
            #expect(error.exitStatus == BridgeSetupError.wrongSessionStatus, "\(error)")
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let unit = try String(contentsOf: root.appendingPathComponent("dist/gesture-bridge.service"), encoding: .utf8)
        #expect(unit.split(separator: "\n").contains { $0.hasPrefix("RestartPreventExitStatus=")
            && $0.dropFirst("RestartPreventExitStatus=".count).split(separator: " ").contains("\(BridgeSetupError.wrongSessionStatus)") })
    }

    @Test("a Wayland session is named and the way out explained", arguments: [
        ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"],
        ["XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0"],
    ])
    func wayland(environment: [String: String]) {
        do {
            _ = try DisplayCheck.displayName(environment: environment)
            Issue.record("a Wayland session was accepted")
        } catch {
            #expect(error.description.contains("X11-only"))
            #expect(error.description.contains("X11 session"))
        }
    }

    /// Found in review of a Wayland user's week: a systemd user manager that outlived a Wayland
    /// login kept its variables into the X11 login after it, and every bridge started there (the
    /// service, the autostart entry) refused, telling the user to choose X11.
    @Test("Wayland variables with no compositor's socket, or in a session that says it is X11, do not refuse an X11 session")
    func staleWaylandVariables() throws {
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-runtime-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        // Left over: no socket.
        #expect(try DisplayCheck.displayName(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": runtime]) == ":0")
        #expect(try DisplayCheck.displayName(environment: ["DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland", "XDG_RUNTIME_DIR": runtime]) == ":0")
        #expect(try DisplayCheck.displayName(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": runtime + "/wayland-1"]) == ":0")
        // The compositor there: a Wayland session.
        #expect(FileManager.default.createFile(atPath: runtime + "/wayland-0", contents: nil))
        #expect(throws: BridgeSetupError.waylandSession(variable: "WAYLAND_DISPLAY=wayland-0")) {
            try DisplayCheck.displayName(environment: ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": runtime])
        }
        #expect(throws: BridgeSetupError.waylandSession(variable: "XDG_SESSION_TYPE=wayland")) {
            try DisplayCheck.displayName(environment: ["DISPLAY": ":0", "XDG_SESSION_TYPE": "wayland", "XDG_RUNTIME_DIR": runtime])
        }
        // A compositor nested in an X11 desktop (weston's X11 backend) sets WAYLAND_DISPLAY for
        // its own terminals; the session is X11 (the server itself is asked next).
        #expect(try DisplayCheck.displayName(environment: ["DISPLAY": ":0", "XDG_SESSION_TYPE": "x11", "WAYLAND_DISPLAY": "wayland-0",
                                                          "XDG_RUNTIME_DIR": runtime]) == ":0")
    }

    /// Found in review of a Wayland user's week: told by the server alone (over ssh, under
    /// sudo), the advice was to unset variables the session never set.
    @Test("Xwayland told by the server is named as such, with no advice about variables")
    func xwaylandByTheServer() {
        let error = BridgeSetupError.xwaylandServer(display: ":0", sign: "its monitor is XWAYLAND0")
        #expect(error.exitStatus == BridgeSetupError.wrongSessionStatus)
        #expect(error.description.contains("Xwayland") && error.description.contains("X11 session"), "\(error)")
        #expect(!error.description.contains("WAYLAND_DISPLAY") && !error.description.contains("XDG_SESSION_TYPE"), "\(error)")
    }

    @Test("no DISPLAY says how to set it: from a terminal, or, run as the systemd service, in the session's start-up")
    func noDisplay() {
        #expect(throws: BridgeSetupError.noDisplay(service: false)) { try DisplayCheck.displayName(environment: ["DISPLAY": ""]) }
        #expect(BridgeSetupError.noDisplay(service: false).description.contains("DISPLAY=:0"))
        #expect(throws: BridgeSetupError.noDisplay(service: true)) {
            try DisplayCheck.displayName(environment: ["INVOCATION_ID": "0123456789abcdef"])
        }
        #expect(BridgeSetupError.noDisplay(service: true).description.contains("systemctl --user import-environment DISPLAY XAUTHORITY"))
    }

    @Test("an X11 session gives its display")
    func x11() throws {
        #expect(try DisplayCheck.displayName(environment: ["DISPLAY": ":1", "XDG_SESSION_TYPE": "x11"]) == ":1")
    }
}
