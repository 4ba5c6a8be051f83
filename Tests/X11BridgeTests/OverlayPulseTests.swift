import CX11
import GestureKit
import Testing
@testable import X11Bridge

@Suite("The deep-press pulse on an X screen", .requiresOverlayXvfb)
final class OverlayPulseTests: OverlaySuite {
    static let point = Point(x: 400, y: 300)

    @Test("the pulse is a small override-redirect window that clicks pass through, gone when its animation ends")
    func pulseWindow() throws {
        let overlay = try screen.openOverlay()
        defer { overlay.close() }
        #expect(overlay.nextDeadline == nil, "nothing shown, nothing to wake up for")

        overlay.show(.pulse(.overlaid, at: Self.point, time: 10), now: 10)
        let windows = screen.overlayWindows()
        try #require(windows.count == 1)
        let window = screen.attributes(of: windows[0])
        #expect(window.map_state == IsViewable)
        #expect(window.override_redirect != 0)
        #expect(screen.inputShapeRectangles(of: windows[0]) == 0)
        #expect(window.width < 200 && window.height < 200, "sized to the effect, not the screen")
        #expect(abs(Int(window.x) + Int(window.width) / 2 - 400) <= 1 && abs(Int(window.y) + Int(window.height) / 2 - 300) <= 1)

        // Where the ring is drawn, the pointer and a click still belong to the application.
        let shot = screen.screenshot()
        let ringX = try #require((400...500).first { shot[$0, 300] == .pulse }, "the first frame's ring right of the point")
        #expect(screen.windowUnderPointer(x: ringX, y: 300) == screen.application)
        let press = screen.clickReachesApplication(x: ringX, y: 300)
        #expect(press?.x == ringX && press?.y == 300)

        // The animation on a virtual clock: every frame the overlay asks for, until it asks for none.
        var frames = 0
        var last = 10.0
        while let deadline = overlay.nextDeadline, frames < 100 {
            #expect(deadline > last && deadline <= 10.25 + 1e-9)
            overlay.tick(now: deadline)
            last = deadline
            frames += 1
        }
        // No compositor here: the shaped window is redrawn 20 times a second, not 60.
        #expect((5...7).contains(frames), "about 20 frames a second for 250 ms: \(frames)")
        #expect(abs(last - 10.25) < 1e-9)
        #expect(overlay.nextDeadline == nil)
        #expect(screen.overlayWindows().isEmpty)
        let after = screen.screenshot()
        #expect(after.histogram(around: Self.point, within: 90) == [OverlayTestDisplay.background: 181 * 181])
        screen.expectNoErrors()
    }

    @Test("the ring grows by about 50 px, thickens and fades, centred on the point, with nothing else drawn")
    func pulseScreenshots() throws {
        let overlay = try screen.openOverlay()
        defer { overlay.close() }
        overlay.show(.pulse(.overlaid, at: Self.point, time: 5), now: 5)

        var rings: [(radius: Double, thickness: Double, coverage: Double)] = []
        for (index, elapsed) in [0.01, 0.05, 0.11].enumerated() {
            overlay.tick(now: 5 + elapsed)
            let shot = screen.screenshot()
            try shot.save(as: "overlay-pulse-\(index + 1)-\(Int(elapsed * 1000))ms")
            let distances = shot.distances(of: .pulse, around: Self.point, within: 80)
            try #require(distances.count > 20, "the ring shows \(Int(elapsed * 1000)) ms in")
            let radius = distances.reduce(0, +) / Double(distances.count)
            let inner = distances.min() ?? 0
            let outer = distances.max() ?? 0
            let thickness = outer - inner
            // The share of the stroke's area the shape keeps, for the frame on screen (frames come
            // every 50 ms without a compositor: the first shot shows the pulse's first frame).
            // Whole pixels at full opacity keep about all of it; a fade dithers it away.
            let shown = try #require(PulseAnimation().frame(atElapsed: index == 0 ? 0 : elapsed))
            rings.append((radius, thickness, Double(distances.count) / (2 * .pi * shown.radius * shown.lineWidth)))

            // Nothing but the ring: inside it, around it and far away the application shows.
            var colours = shot.histogram(around: Self.point, within: 80)
            colours[.pulse] = nil
            #expect(Set(colours.keys) == [OverlayTestDisplay.background], "\(Int(elapsed * 1000)) ms: \(colours)")
            #expect(shot[400, 300] == OverlayTestDisplay.background)
            #expect(shot[400 + 150, 300] == OverlayTestDisplay.background && shot[400, 300 - 150] == OverlayTestDisplay.background)
            #expect(inner > 15, "the centre stays clear")
            // Centred on the point: the ring's pixels balance around it.
            let centroid = Self.centroid(of: .pulse, in: shot, within: 80)
            #expect(abs(centroid.x - 400) < 1.5 && abs(centroid.y - 300) < 1.5, "centre \(centroid)")
        }
        #expect((19...27).contains(rings[0].radius), "starts just outside the touch: \(rings[0].radius)")
        #expect(rings[0].radius < rings[1].radius && rings[1].radius < rings[2].radius, "grows: \(rings.map(\.radius))")
        // 110 ms in, ease-out has done most of the 50 px already.
        #expect((45...57).contains(rings[2].radius), "\(rings[2].radius)")
        #expect(rings[2].thickness > rings[0].thickness + 3, "thickens: \(rings.map(\.thickness))")
        #expect(rings[2].coverage < rings[0].coverage * 0.7, "fades: \(rings.map(\.coverage))")

        overlay.tick(now: 5.3)
        #expect(screen.overlayWindows().isEmpty)
    }

    @Test("a pulse reported after its time shows only what is left of it, and a stale one nothing")
    func latePulse() throws {
        let overlay = try screen.openOverlay()
        defer { overlay.close() }
        overlay.show(.pulse(.overlaid, at: Self.point, time: 1), now: 1.2)
        #expect(screen.overlayWindows().count == 1)
        #expect(overlay.nextDeadline.map { $0 <= 1.25 + 1e-9 } == true)
        overlay.tick(now: 1.25)
        #expect(screen.overlayWindows().isEmpty)

        overlay.show(.pulse(.overlaid, at: Self.point, time: 1), now: 2)
        #expect(screen.overlayWindows().isEmpty)
        #expect(overlay.nextDeadline == nil)
    }

    @Test("a pulse in the screen's corner gets a window cut to the screen")
    func cornerPulse() throws {
        let overlay = try screen.openOverlay()
        defer { overlay.close() }
        overlay.show(.pulse(.overlaid, at: Point(x: 3, y: 596), time: 0), now: 0)
        let windows = screen.overlayWindows()
        try #require(windows.count == 1)
        let window = screen.attributes(of: windows[0])
        #expect(window.x == 0 && window.y + window.height == 600, "\(window.x),\(window.y) \(window.width)x\(window.height)")
        #expect(window.width < 90 && window.height < 90)
        let shot = screen.screenshot()
        #expect(!shot.distances(of: .pulse, around: Point(x: 40, y: 560), within: 39).isEmpty)
        screen.expectNoErrors()
    }

    @Test("presses faster than a pulse lasts keep at most three pulses on screen, the newest")
    func rapidPulses() throws {
        let overlay = try screen.openOverlay()
        defer { overlay.close() }
        for index in 0..<10 {
            let time = 1 + Double(index) * 0.01
            overlay.show(.pulse(.overlaid, at: Point(x: 100 + Double(index) * 40, y: 300), time: time), now: time)
        }
        let windows = screen.overlayWindows()
        #expect(windows.count == 3)
        // The three left are the last three presses'.
        let centres = windows.map { window -> Int in
            let attributes = screen.attributes(of: window)
            return Int(attributes.x) + Int(attributes.width) / 2
        }.sorted()
        #expect(zip(centres, [380, 420, 460]).allSatisfy { abs($0 - $1) <= 1 }, "\(centres)")
        overlay.tick(now: 2)
        #expect(screen.overlayWindows().isEmpty)
        #expect(overlay.nextDeadline == nil)
        screen.expectNoErrors()
    }

    @Test("close takes a running pulse down and stops asking for frames")
    func closeStops() throws {
        let overlay = try screen.openOverlay()
        overlay.show(.pulse(.overlaid, at: Self.point, time: 0), now: 0)
        overlay.show(.progress(ContactKey(device: 2, contact: 0), at: Point(x: 100, y: 100), fraction: 0.5), now: 0)
        #expect(screen.overlayWindows().count == 2)
        overlay.close()
        #expect(screen.overlayWindows().isEmpty)
        #expect(overlay.nextDeadline == nil)
        overlay.show(.pulse(.overlaid, at: Self.point, time: 0), now: 0)
        #expect(screen.overlayWindows().isEmpty, "a closed overlay shows nothing")
        screen.expectNoErrors()
    }

    static func centroid(of color: OverlayTestColor, in shot: OverlayScreenshot, within limit: Int) -> Point {
        var sumX = 0.0
        var sumY = 0.0
        var count = 0.0
        for y in (300 - limit)...(300 + limit) {
            for x in (400 - limit)...(400 + limit) where shot[x, y] == color {
                sumX += Double(x)
                sumY += Double(y)
                count += 1
            }
        }
        return count > 0 ? Point(x: sumX / count, y: sumY / count) : Point(x: .nan, y: .nan)
    }
}
