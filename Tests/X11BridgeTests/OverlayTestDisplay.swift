import CX11
import Foundation
import GestureKit
import Testing
@testable import X11Bridge
import XorgTestSupport

/// An 800×600 Xvfb with one plain "application" window filling the screen, for the overlay
/// tests: the overlay draws over it, and clicks that pass through the overlay land in it.
final class OverlayTestDisplay {
    static let width = 800
    static let height = 600
    /// The application's colour, which every pixel the overlay does not draw must keep.
    static let background = OverlayTestColor(red: 0x2E, green: 0x34, blue: 0x40)

    let connection: XConnection
    let application: Window
    private let server: ChildProcess

    var display: OpaquePointer { connection.display }
    var root: Window { connection.root }

    init() throws {
        guard let executable = OverlayXvfbAvailability.executable else {
            throw OverlayTestDisplayError(message: "Xvfb is not installed, and \(OverlayXvfbAvailability.requirementVariable)=1 requires the X tests to run")
        }
        let server = try ChildProcess(
            executable: executable,
            arguments: ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "\(Self.width)x\(Self.height)x24", "-terminate"],
            environment: [:])
        // Xvfb picks a free display itself and writes its number once it accepts connections.
        // -terminate: it exits when its last client goes, so a test process that dies without
        // cleaning up leaves no server behind.
        server.waitForOutput(timeout: 10) { output, _ in output.contains("\n") }
        let number = server.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !number.isEmpty, Int(number) != nil else {
            server.stop()
            throw OverlayTestDisplayError(message: "Xvfb did not report a display number: \(server.errorOutput)")
        }
        self.server = server
        XlibThreads.initialize()
        do {
            connection = try XConnection.open(name: ":" + number, requirements: .init(xtest: true))
        } catch {
            server.stop()
            throw error
        }
        let display = connection.display
        let screen = connection.screenNumber
        var attributes = XSetWindowAttributes()
        attributes.background_pixel = Self.background.pixel
        attributes.event_mask = ButtonPressMask
        application = XCreateWindow(display, connection.root, 0, 0, UInt32(Self.width), UInt32(Self.height), 0,
                                    XDefaultDepth(display, screen), UInt32(InputOutput), XDefaultVisual(display, screen),
                                    UInt(CWBackPixel | CWEventMask), &attributes)
        XMapWindow(display, application)
        connection.sync()
    }

    /// Closes the connection, then stops the server (the other way round would leave a
    /// connection to a dead server: SIGPIPE).
    func stop() {
        connection.close()
        server.stop()
    }

    /// An overlay on this screen, opened as the bridge opens its own. Close it before the screen stops.
    func openOverlay() throws -> FeedbackOverlay {
        try FeedbackOverlay(display: display, screen: connection.screenNumber)
    }

    /// Every request sent so far went through: the server refused none.
    func expectNoErrors(sourceLocation: SourceLocation = #_sourceLocation) {
        connection.sync()
        #expect(connection.takeErrors().isEmpty, sourceLocation: sourceLocation)
    }

    /// A second connection to this screen on a desktop set to `dpi` (`Xft.dpi`, as xrdb leaves
    /// it on the root), which Xlib reads when a display opens. Close it after the overlay on it.
    func connection(atDPI dpi: Int) throws -> XConnection {
        let resources = Array("Xft.dpi:\t\(dpi)\n".utf8)
        resources.withUnsafeBufferPointer { bytes in
            _ = XChangeProperty(display, root, XA_RESOURCE_MANAGER, XA_STRING, 8, PropModeReplace,
                                bytes.baseAddress, Int32(bytes.count))
        }
        connection.sync()
        return try XConnection.open(name: connection.displayName, requirements: .init(xtest: false))
    }

    /// The overlay's windows on screen, found as any X client would see them: mapped
    /// children of the root whose class is GestureBridge.
    func overlayWindows() -> [Window] {
        topLevelWindows(on: display).filter { windowClass(of: $0, on: display) == "GestureBridge" }
    }

    func attributes(of window: Window) -> XWindowAttributes {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, window, &attributes)
        return attributes
    }

    /// The rectangles of a window's input shape: none means every click passes through it.
    func inputShapeRectangles(of window: Window) -> Int {
        var count: Int32 = 0
        var ordering: Int32 = 0
        let rectangles = XShapeGetRectangles(display, window, ShapeInput, &count, &ordering)
        if let rectangles { XFree(rectangles) }
        return Int(count)
    }

    /// The window the pointer would be in at (x, y): moves the pointer there and asks.
    func windowUnderPointer(x: Int, y: Int) -> Window {
        XWarpPointer(display, 0, root, 0, 0, 0, 0, Int32(x), Int32(y))
        return CorePointerState.pointerQuery(display)?.child ?? 0
    }

    /// Clicks at (x, y) through XTest, as a user would, and returns where the application
    /// received the press, if it did.
    func clickReachesApplication(x: Int, y: Int) -> (x: Int, y: Int)? {
        XTestFakeMotionEvent(display, connection.screenNumber, Int32(x), Int32(y), 0)
        XTestFakeButtonEvent(display, 1, 1, 0)
        XTestFakeButtonEvent(display, 1, 0, 0)
        connection.sync()
        // The connection's events are read through XCB, as the bridge reads them.
        while let event = connection.nextEvent(reading: true) {
            guard event.code == XCB_BUTTON_PRESS else { continue }
            let press = event.read(as: xcb_button_press_event_t.self).pointee
            if Window(press.event) == application { return (Int(press.event_x), Int(press.event_y)) }
        }
        return nil
    }

    func screenshot() -> OverlayScreenshot {
        connection.sync()
        return OverlayScreenshot(display: display, root: root, width: Self.width, height: Self.height)
    }
}

struct OverlayTestDisplayError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Whether the overlay's X tests can run here: skipped with the reason where Xvfb is missing,
/// unless GESTUREBRIDGE_REQUIRE_XORG=1 makes the missing server a failure.
enum OverlayXvfbAvailability {
    static let requirementVariable = "GESTUREBRIDGE_REQUIRE_XORG"

    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/Xvfb" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isRequired: Bool {
        ProcessInfo.processInfo.environment[requirementVariable] == "1"
    }

    static var canRun: Bool { executable != nil || isRequired }
}

extension Trait where Self == ConditionTrait {
    static var requiresOverlayXvfb: Self {
        .enabled(if: OverlayXvfbAvailability.canRun,
                 "needs Xvfb on PATH (set \(OverlayXvfbAvailability.requirementVariable)=1 to make its absence a failure)")
    }
}

extension OverlayTestDisplay: SuiteResource {
    static func start() throws -> OverlayTestDisplay { try OverlayTestDisplay() }
}

/// Each test has a fresh `OverlayTestDisplay` of its own.
class OverlaySuite: SuiteFixture<OverlayTestDisplay> {
    var screen: OverlayTestDisplay { resource }
}

extension ContactKey {
    /// The contact a pulse drawn straight onto an overlay belongs to: the overlay draws any
    /// contact's the same.
    static let overlaid = ContactKey(device: 2, contact: 0)
}
