import CX11
import Foundation
import Testing
import XorgTestSupport
@testable import X11Bridge

@Suite("run --show-touches", .requiresXorg, .serialized)
struct ShowTouchesTests {
    @Test("a pen touching the screen shows a circle there; lifting it takes the circle away")
    func penContact() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let screen = try #require(OverlayWindowLister(displayName: server.displayName))
        defer { screen.close() }
        let bridge = try server.bridge(["--show-touches"])
        #expect(screen.visibleOverlayFrames().isEmpty)

        try server.pen.down(at: (400, 300), pressure: 0.3)
        // The deep press's progress ring may show too; the touch view is the contact-sized one.
        let markerSide = 2 * ContactMarker.extent + 1
        let shown = screen.wait { $0.contains { $0.width == markerSide } }.filter { $0.width == markerSide }
        #expect(shown.count == 1, "\(screen.visibleOverlayFrames()) side \(markerSide)")
        #expect(shown.allSatisfy { $0.contains(x: 400, y: 300) }, "\(shown)")

        try server.pen.up()
        #expect(screen.wait { $0.isEmpty }.isEmpty)
        _ = bridge
    }

    /// Found in review of a screencast: Ctrl-Z with fingers down left their circles on the
    /// screen, frozen, while the bridge was stopped and after `fg`, until the next touch.
    @Test("Ctrl-Z with a finger and the pen down takes their circles away before the bridge stops; none comes back with fg")
    func ctrlZTakesCirclesAway() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let screen = try #require(OverlayWindowLister(displayName: server.displayName))
        defer { screen.close() }
        let bridge = try BridgeProcess(["run", "--json", "--show-touches"], server: server, ownProcessGroup: true)
        try server.touch.begin(at: (400, 300), pressure: 0.3)
        try server.pen.down(at: (800, 300), pressure: 0.3)
        #expect(screen.waitForMarker(at: (400, 300)) && screen.waitForMarker(at: (800, 300)), "the stimulus: both shown")
        StoppedBridgeTests.ctrlZ(bridge)
        #expect(screen.visibleOverlayFrames().isEmpty, "nothing left on the screen while it is stopped: \(screen.visibleOverlayFrames())")
        try server.touch.end()
        try server.pen.up()
        StoppedBridgeTests.fg(bridge)
        #expect(try bridge.waitUntilAsleep(quiet: 0.1))
        #expect(screen.visibleOverlayFrames().isEmpty, "\(screen.visibleOverlayFrames())")
        #expect(bridge.stop(with: SIGTERM) == 0)
    }

    /// Found in review of a screencast: a mouse held and dragged showed a circle, where help
    /// and README promise pens and fingers (the pointer shows where a mouse is).
    @Test("a mouse button held and dragged shows no circle; a pen's touch after it does")
    func mouseShowsNoCircle() throws {
        let server = try HeadlessXorg(mouse: true)
        defer { server.stop() }
        let screen = try #require(OverlayWindowLister(displayName: server.displayName))
        defer { screen.close() }
        let bridge = try server.bridge(["--show-touches", "--verbose"])
        let mouse = try #require(server.mouse)
        try mouse.press()
        try mouse.move(by: 40, 20)
        try mouse.move(by: 40, 20)
        // The stimulus: the server has the mouse's button down, and the bridge has read it all.
        #expect(screen.pointerButtonsHeld().contains(1))
        #expect(try bridge.waitUntilAsleep(quiet: 0.1))
        #expect(screen.visibleOverlayFrames().isEmpty, "\(screen.visibleOverlayFrames())")
        try mouse.release()
        try server.pen.down(at: (400, 300), pressure: 0.3)
        #expect(screen.waitForMarker(at: (400, 300)))
        try server.pen.up()
    }
}

extension OverlayWindowLister {
    /// Waits until a contact marker (`run --show-touches`) shows at `point`: the bridge has
    /// read the contact there.
    func waitForMarker(at point: PixelPoint, timeout: Double = 3) -> Bool {
        let side = 2 * ContactMarker.extent + 1
        func shown(_ frames: [Frame]) -> Bool {
            frames.contains { $0.width == side && $0.contains(x: Int(point.x), y: Int(point.y)) }
        }
        return shown(wait(timeout: timeout, until: shown))
    }
}

/// The bridge's mapped overlay windows on a test server, seen from a separate client.
final class OverlayWindowLister {
    struct Frame: CustomStringConvertible {
        var x: Int, y: Int, width: Int, height: Int
        func contains(x px: Int, y py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
        var description: String { "\(width)x\(height)+\(x)+\(y)" }
    }

    /// Through XConnection, whose error handler records errors: a window the bridge destroys
    /// between the listing and the look at it is a BadWindow, which Xlib's default handler
    /// would answer by ending the test process.
    private let connection: XConnection
    private var display: OpaquePointer { connection.display }

    init?(displayName: String) {
        guard let connection = try? XConnection.open(name: displayName, requirements: .init(xtest: false)) else { return nil }
        self.connection = connection
    }

    func close() { connection.close() }

    /// Polls until `condition` holds or `timeout` passes; returns the last frames seen.
    func wait(timeout: Double = 3, until condition: ([Frame]) -> Bool) -> [Frame] {
        poll(timeout: timeout, every: 0.02, visibleOverlayFrames, until: condition)
    }

    /// The core pointer's buttons held down now, as the server says.
    func pointerButtonsHeld() -> [Int] {
        var root: Window = 0, child: Window = 0
        var rootX: Int32 = 0, rootY: Int32 = 0, x: Int32 = 0, y: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(display, XDefaultRootWindow(display), &root, &child, &rootX, &rootY, &x, &y, &mask)
        return (1...5).filter { mask & (UInt32(Button1Mask) << UInt32($0 - 1)) != 0 }
    }

    func visibleOverlayFrames() -> [Frame] {
        topLevelWindows(on: display).compactMap { window -> Frame? in
            var attributes = XWindowAttributes()
            guard windowClass(of: window, on: display) == "GestureBridge", XGetWindowAttributes(display, window, &attributes) != 0,
                  attributes.map_state == IsViewable else { return nil }
            return Frame(x: Int(attributes.x), y: Int(attributes.y), width: Int(attributes.width), height: Int(attributes.height))
        }
    }
}
