import CX11
import GestureKit
import Testing
@testable import X11Bridge

@Suite("The overlay with and without a compositor", .requiresOverlayXvfb)
final class OverlayCompositorTests: OverlaySuite {
    static let point = Point(x: 400, y: 300)
    static let pen = ContactKey(device: 2, contact: 0)

    @Test("without a compositor the window is 24-bit and every pixel of it off the ring shows the desktop")
    func noBlackBox() throws {
        let overlay = try screen.openOverlay()
        defer { overlay.close() }
        overlay.show(.pulse(.overlaid, at: Self.point, time: 0), now: 0)
        overlay.tick(now: 0.04)
        let windows = screen.overlayWindows()
        try #require(windows.count == 1)
        let window = screen.attributes(of: windows[0])
        #expect(window.depth == 24)
        let shot = screen.screenshot()
        try shot.save(as: "overlay-no-compositor")
        let colours = Self.colours(in: window, of: shot)
        #expect(colours[.black] == nil)
        #expect(Set(colours.keys) == [OverlayTestDisplay.background, .pulse], "\(colours)")
        #expect((colours[OverlayTestDisplay.background] ?? 0) > 10 * (colours[.pulse] ?? 0), "mostly desktop")
    }

    @Test("with a compositor owning _NET_WM_CM_S0 the windows are ARGB and still click-through")
    func compositor() throws {
        let overlay = try screen.openOverlay()
        defer { overlay.close() }
        let owner = Self.claimCompositorSelection(on: screen)

        overlay.show(.pulse(.overlaid, at: Self.point, time: 0), now: 0)
        let windows = screen.overlayWindows()
        try #require(windows.count == 1)
        let window = screen.attributes(of: windows[0])
        #expect(window.depth == 32)
        #expect(window.override_redirect != 0)
        #expect(screen.inputShapeRectangles(of: windows[0]) == 0)
        #expect(screen.windowUnderPointer(x: 400, y: 300) == screen.application)
        overlay.tick(now: 1)
        XDestroyWindow(screen.display, owner)
        screen.expectNoErrors()
    }

    /// An overlay looking for the compositor at most every `interval` seconds, showing a ring
    /// in an ARGB window while a compositor runs, which then quits.
    func ringThenCompositorQuits(interval: Double) throws -> FeedbackOverlay {
        let overlay = try FeedbackOverlay(display: screen.display, screen: screen.connection.screenNumber,
                                          compositorCheckInterval: interval)
        let owner = Self.claimCompositorSelection(on: screen)
        overlay.show(.progress(Self.pen, at: Self.point, fraction: 0.4), now: 0)
        let before = screen.overlayWindows()
        #expect(before.count == 1 && before.first.map { screen.attributes(of: $0).depth } == 32)
        // A compositor's selection goes when its window does.
        XDestroyWindow(screen.display, owner)
        screen.connection.sync()
        return overlay
    }

    @Test("when the compositor quits, a ring on screen turns into a shaped 24-bit window at its next update: no black box")
    func compositorQuits() throws {
        let overlay = try ringThenCompositorQuits(interval: 0)
        defer { overlay.close() }
        overlay.show(.progress(Self.pen, at: Self.point, fraction: 0.5), now: 0.1)
        let after = screen.overlayWindows()
        try #require(after.count == 1)
        let window = screen.attributes(of: after[0])
        #expect(window.depth == 24)
        #expect(screen.inputShapeRectangles(of: after[0]) == 0)
        let colours = Self.colours(in: window, of: screen.screenshot())
        #expect(colours.keys.allSatisfy { $0 == OverlayTestDisplay.background || $0.isBlend(of: [.pulse, .track]) }, "\(colours)")
        screen.expectNoErrors()
    }

    /// Found in review: a ring with nothing new to show was never looked at again, and a
    /// compositor quitting under it left a black box while the finger rested.
    @Test("the compositor quits while a ring is held still: the overlay looks again by itself, and no black box stays")
    func compositorQuitsUnderAStillRing() throws {
        let overlay = try ringThenCompositorQuits(interval: 0.5)
        defer { overlay.close() }
        let deadline = try #require(overlay.nextDeadline, "a look for the compositor is due while the ring is up")
        #expect(deadline <= 0.5)
        overlay.tick(now: deadline)
        let after = screen.overlayWindows()
        try #require(after.count == 1)
        #expect(screen.attributes(of: after[0]).depth == 24, "still ARGB with no compositor: a black box")
        // Nothing translucent is up any more: nothing to wake for.
        #expect(overlay.nextDeadline == nil)
        screen.expectNoErrors()
    }

    @Test("under a real compositor the pulse fades by alpha: its ring blends into the desktop", .requiresCompositor)
    func realCompositorBlends() throws {
        let compositor = try OverlayCompositorProcess(on: screen)
        defer { compositor.stop() }
        let overlay = try FeedbackOverlay(display: screen.display, screen: screen.connection.screenNumber,
                                          compositorCheckInterval: 0)
        defer { overlay.close() }
        overlay.show(.pulse(.overlaid, at: Self.point, time: 0), now: 0)
        overlay.show(.progress(Self.pen, at: Point(x: 200, y: 200), fraction: 0.6), now: 0)
        #expect(try compositor.settle(), "the compositor has painted what was sent and sleeps")
        // 110 ms in, the ring is at about 38% opacity (ease-out has done most of the fading).
        overlay.tick(now: 0.11)
        #expect(try compositor.settle(), "the compositor has painted what was sent and sleeps")
        let shot = screen.screenshot()
        try shot.save(as: "overlay-compositor-xcompmgr")

        let windows = screen.overlayWindows()
        #expect(windows.count == 2 && windows.allSatisfy { screen.attributes(of: $0).depth == 32 })
        var pulseColours = shot.histogram(around: Self.point, within: 77)
        pulseColours[OverlayTestDisplay.background] = nil
        // Every ring pixel is the ring's colour blended into the desktop: the stroke's body at
        // the pulse's opacity, its antialiased edges at less.
        let opacities = pulseColours.map { (colour: $0.key, count: $0.value,
                                            opacity: $0.key.blend(from: OverlayTestDisplay.background, to: .pulse)) }
        #expect(opacities.allSatisfy { $0.opacity != nil }, "blends of the ring colour only: \(pulseColours)")
        let body = try #require(opacities.max { $0.count < $1.count })
        let opacity = body.opacity ?? 0
        #expect((0.25...0.5).contains(opacity), "\(body.colour) is \(opacity) of the way to the ring colour")
        #expect(opacities.contains { ($0.opacity ?? 1) < opacity - 0.05 }, "antialiased edges: \(pulseColours)")
        #expect(shot[400, 300] == OverlayTestDisplay.background)
        // The progress ring's track is half transparent grey over the desktop; its arc opaque,
        // with antialiased edges.
        let ringColours = shot.histogram(around: Point(x: 200, y: 200), within: 34)
        #expect(ringColours.keys.contains(.pulse) && !ringColours.keys.contains(.track) && !ringColours.keys.contains(.black),
                "\(ringColours)")
        // The track's body: the commonest blend of grey into the desktop, the desktop aside.
        let trackBlends = ringColours.compactMap { colour, count in
            colour.blend(from: OverlayTestDisplay.background, to: .track).flatMap { $0 > 0.05 ? (share: $0, count: count) : nil }
        }
        let trackOpacity = trackBlends.max { $0.count < $1.count }?.share
        #expect(trackOpacity.map { (0.4...0.6).contains($0) } == true, "a half transparent track: \(ringColours)")
        #expect(ringColours.count > 5, "antialiased edges blend arc, track and desktop: \(ringColours)")

        // The compositor quits: the next update rebuilds the ring as a shaped window.
        compositor.stop()
        overlay.show(.progress(Self.pen, at: Point(x: 200, y: 200), fraction: 0.7), now: 0.2)
        let afterQuit = screen.screenshot()
        try afterQuit.save(as: "overlay-compositor-gone")
        let colours = Set(afterQuit.histogram(around: Point(x: 200, y: 200), within: 34).keys)
        #expect(colours.allSatisfy { $0 == OverlayTestDisplay.background || $0.isBlend(of: [.pulse, .track]) }, "\(colours)")
    }

    /// Found in review of a day under a compositor: picom with its shadows on (`--shadow`, or a
    /// config's `shadow = true;`) shadows every window type but the desktop's, and the ring and
    /// the pulse wore a dark square halo about 20 px wide while a press was held.
    @Test("under picom with its shadows on, the ring and the pulse cast no shadow on the desktop around them", .requiresPicom)
    func picomShadowsLeaveTheFeedbackAlone() throws {
        let compositor = try OverlayCompositorProcess(on: screen, program: .picomWithShadows)
        defer { compositor.stop() }
        let overlay = try FeedbackOverlay(display: screen.display, screen: screen.connection.screenNumber,
                                          compositorCheckInterval: 0)
        defer { overlay.close() }
        overlay.show(.progress(Self.pen, at: Point(x: 200, y: 200), fraction: 0.6), now: 0)
        overlay.show(.pulse(.overlaid, at: Self.point, time: 0), now: 0)
        #expect(try compositor.settle(), "the compositor has painted what was sent and sleeps")
        let windows = screen.overlayWindows()
        try #require(windows.count == 2)
        let shot = screen.screenshot()
        try shot.save(as: "overlay-compositor-picom-shadows")
        for window in windows.map({ screen.attributes(of: $0) }) {
            #expect(window.depth == 32, "composited")
            let (left, top, middleX, middleY) = (Int(window.x), Int(window.y), Int(window.x + window.width / 2), Int(window.y + window.height / 2))
            // picom's shadow lies up and to the left of its window by default: the desktop
            // there, 1 to 20 px out, is the desktop's own colour.
            let beside = (1...20).map { shot[left - $0, middleY] }
            let above = (1...20).map { shot[middleX, top - $0] }
            #expect(beside.allSatisfy { $0 == OverlayTestDisplay.background }, "left of the window at \(left),\(top): \(beside)")
            #expect(above.allSatisfy { $0 == OverlayTestDisplay.background }, "above the window at \(left),\(top): \(above)")
        }
    }

    @Test("under a real compositor on a desktop at 192 DPI: the ring twice its size, antialiased, in 32-bit windows", .requiresCompositor)
    func doubleScaleComposited() throws {
        let compositor = try OverlayCompositorProcess(on: screen)
        defer { compositor.stop() }
        let scaled = try screen.connection(atDPI: 192)
        defer { scaled.close() }
        let overlay = try FeedbackOverlay(display: scaled.display, screen: scaled.screenNumber, compositorCheckInterval: 0)
        defer { overlay.close() }
        overlay.show(.progress(Self.pen, at: Self.point, fraction: 0.6), now: 0)
        scaled.sync()
        #expect(try compositor.settle(), "the compositor has painted what was sent and sleeps")
        let shot = screen.screenshot()
        _ = try shot.save(as: "overlay-compositor-scale-2")
        #expect(screen.overlayWindows().allSatisfy { screen.attributes(of: $0).depth == 32 })
        let radius = try #require(OverlayProgressRingTests.ringRadius(in: shot, around: Self.point))
        #expect(abs(radius - 2 * 28) <= 3, "twice the 28 px ring: \(radius)")
        let colours = shot.histogram(around: Self.point, within: 70)
        let blends = colours.keys.filter { $0 != .pulse && $0.blend(from: OverlayTestDisplay.background, to: .pulse) != nil }
        #expect(!blends.isEmpty, "antialiased edges between the arc and the desktop: \(colours)")
    }

    /// Stands in for a compositor: owning the selection is how one announces itself.
    static func claimCompositorSelection(on screen: OverlayTestDisplay) -> Window {
        let selection = XInternAtom(screen.display, "_NET_WM_CM_S\(screen.connection.screenNumber)", 0)
        let owner = XCreateSimpleWindow(screen.display, screen.root, 0, 0, 1, 1, 0, 0, 0)
        XSetSelectionOwner(screen.display, selection, owner, UInt(CurrentTime))
        screen.connection.sync()
        return owner
    }

    static func colours(in window: XWindowAttributes, of shot: OverlayScreenshot) -> [OverlayTestColor: Int] {
        var colours: [OverlayTestColor: Int] = [:]
        for y in Int(window.y)..<Int(window.y + window.height) {
            for x in Int(window.x)..<Int(window.x + window.width) {
                colours[shot[x, y], default: 0] += 1
            }
        }
        return colours
    }
}
