import CX11
import GestureKit
import Testing
import X11Bridge

@Suite("The overlay with and without a compositor", .requiresOverlayXvfb)
struct OverlayCompositorTests {
    static let point = Point(x: 400, y: 300)

    @Test("without a compositor the window is 24-bit and every pixel of it off the ring shows the desktop")
    func noBlackBox() throws {
        let screen = try OverlayTestDisplay()
        defer { screen.stop() }
        let overlay = try FeedbackOverlay(display: screen.display, screen: screen.connection.screenNumber)
        defer { overlay.close() }
        overlay.show(.pulse(at: Self.point, time: 0), now: 0)
        overlay.tick(now: 0.04)
        let windows = screen.overlayWindows()
        try #require(windows.count == 1)
        let window = screen.attributes(of: windows[0])
        #expect(window.depth == 24)
        let shot = screen.screenshot()
        try shot.save(as: "overlay-no-compositor")
        var colours: [OverlayTestColor: Int] = [:]
        for y in Int(window.y)..<Int(window.y + window.height) {
            for x in Int(window.x)..<Int(window.x + window.width) {
                colours[shot[x, y], default: 0] += 1
            }
        }
        #expect(colours[.black] == nil)
        #expect(Set(colours.keys) == [OverlayTestDisplay.background, .pulse], "\(colours)")
        #expect((colours[OverlayTestDisplay.background] ?? 0) > 10 * (colours[.pulse] ?? 0), "mostly desktop")
    }

    @Test("with a compositor owning _NET_WM_CM_S0 the windows are ARGB, still click-through and shaped; after it quits, 24-bit again")
    func compositor() throws {
        let screen = try OverlayTestDisplay()
        defer { screen.stop() }
        let overlay = try FeedbackOverlay(display: screen.display, screen: screen.connection.screenNumber)
        defer { overlay.close() }
        // Stands in for a compositor: owning the selection is how one announces itself.
        let selection = XInternAtom(screen.display, "_NET_WM_CM_S\(screen.connection.screenNumber)", 0)
        let compositor = XCreateSimpleWindow(screen.display, screen.root, 0, 0, 1, 1, 0, 0, 0)
        XSetSelectionOwner(screen.display, selection, compositor, UInt(CurrentTime))
        screen.connection.sync()

        overlay.show(.pulse(at: Self.point, time: 0), now: 0)
        let windows = screen.overlayWindows()
        try #require(windows.count == 1)
        let window = screen.attributes(of: windows[0])
        #expect(window.depth == 32)
        #expect(window.override_redirect != 0)
        #expect(screen.inputShapeRectangles(of: windows[0]) == 0)
        // Shaped to the ring too, so a compositor that quits mid-animation leaves no box.
        #expect(!Self.boundingShape(of: windows[0], in: screen, contains: (x: Int(window.width) / 2, y: Int(window.height) / 2)))
        #expect((16...24).contains { Self.boundingShape(of: windows[0], in: screen, contains: (x: Int(window.width) / 2 + $0, y: Int(window.height) / 2)) })
        overlay.tick(now: 1)

        XSetSelectionOwner(screen.display, selection, 0, UInt(CurrentTime))
        screen.connection.sync()
        overlay.show(.progress(ContactKey(device: 2, contact: 0), at: Self.point, fraction: 0.5), now: 1)
        let after = screen.overlayWindows()
        try #require(after.count == 1)
        #expect(screen.attributes(of: after[0]).depth == 24)
        screen.connection.sync()
        #expect(screen.connection.takeErrors().isEmpty)
    }

    static func boundingShape(of window: Window, in screen: OverlayTestDisplay, contains point: (x: Int, y: Int)) -> Bool {
        var count: Int32 = 0
        var ordering: Int32 = 0
        guard let rectangles = XShapeGetRectangles(screen.display, window, ShapeBounding, &count, &ordering) else { return false }
        defer { XFree(rectangles) }
        return (0..<Int(count)).contains { index in
            let rectangle = rectangles[index]
            return point.x >= Int(rectangle.x) && point.x < Int(rectangle.x) + Int(rectangle.width)
                && point.y >= Int(rectangle.y) && point.y < Int(rectangle.y) + Int(rectangle.height)
        }
    }
}
