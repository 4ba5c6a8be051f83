import GestureKit
import Testing
@testable import X11Bridge

@Suite("The overlay's animation and drawing plan, without a display")
struct OverlayAnimationTests {
    @Test("ease-out leaps first and settles: ahead of linear, steady, exact at both ends")
    func easeOut() {
        let curve = TimingCurve.easeOut
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
        #expect(curve.value(at: -3) == 0 && curve.value(at: 7) == 1)
        let values = stride(from: 0.0, through: 1, by: 0.01).map { curve.value(at: $0) }
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(curve.value(at: 0.2) > 0.25 && curve.value(at: 0.5) > 0.6)
        #expect(abs(TimingCurve.linear.value(at: 0.37) - 0.37) < 1e-6)
    }

    @Test("the pulse grows by 50 px, thickens from 1 to 10 and fades out over 250 ms")
    func pulseFrames() throws {
        let pulse = PulseAnimation()
        let first = try #require(pulse.frame(atElapsed: 0))
        #expect(first.radius == pulse.startRadius && first.lineWidth == 1 && first.opacity == 1)
        let last = try #require(pulse.frame(atElapsed: 0.2499))
        #expect(abs(last.radius - (pulse.startRadius + 50)) < 0.5)
        #expect(abs(last.lineWidth - 10) < 0.2)
        #expect(last.opacity < 0.01)
        #expect(pulse.frame(atElapsed: 0.25) == nil)
        let frames = stride(from: 0.0, to: 0.25, by: 1.0 / 60).compactMap { pulse.frame(atElapsed: $0) }
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.radius < $1.radius && $0.opacity > $1.opacity })
        // Ease-out: the first half of the time does most of the growing.
        let half = try #require(pulse.frame(atElapsed: 0.125))
        #expect(half.radius - first.radius > 0.6 * 50)
        #expect(Double(pulse.extent) >= last.radius + last.lineWidth / 2)
    }

    @Test("dithering covers the share of pixels the opacity asks for")
    func dither() {
        #expect(DitherPattern.level(for: 0) == 0 && DitherPattern.level(for: 1) == 16)
        #expect(DitherPattern.level(for: 0.5) == 8 && DitherPattern.level(for: .nan) == 0)
        func kept(_ coverage: UInt8) -> [[Bool]] {
            (0..<4).map { row in (0..<4).map { DitherPattern.keeps(coverage: coverage, row: row, column: $0) } }
        }
        for level in 0...16 {
            let coverage = UInt8((level * 255 + 8) / 16)
            #expect(kept(coverage).joined().filter { $0 }.count == level, "coverage \(coverage)")
        }
        // Half coverage is a checkerboard: no two neighbours in a row or a column both kept.
        let half = kept(128)
        #expect((0..<4).allSatisfy { row in (0..<3).allSatisfy { !(half[row][$0] && half[row][$0 + 1]) } })
        #expect((0..<3).allSatisfy { row in (0..<4).allSatisfy { !(half[row][$0] && half[row + 1][$0]) } })
    }

    @Test("ARGB pixels are premultiplied; opaque pixels ignore alpha")
    func pixels() {
        let argb = PixelFormat.withAlpha(redMask: 0xFF0000, greenMask: 0xFF00, blueMask: 0xFF, depth: 32)
        #expect(argb.alphaMask == 0xFF00_0000)
        #expect(argb.pixel(for: OverlayColor(red: 1, green: 0.5, blue: 0, alpha: 0.5)) == 0x8080_4000)
        #expect(argb.pixel(for: OverlayColor(red: 1, green: 1, blue: 1, alpha: 0)) == 0)
        let rgb = PixelFormat(redMask: 0xFF0000, greenMask: 0xFF00, blueMask: 0xFF)
        #expect(rgb.pixel(for: OverlayColor(red: 0.2, green: 0.6, blue: 1, alpha: 0.3)) == 0x3399FF)
        let deep = PixelFormat(redMask: 0x3FF0_0000, greenMask: 0xFFC00, blueMask: 0x3FF)
        #expect(deep.pixel(for: OverlayColor(red: 1, green: 0, blue: 1)) == 0x3FF0_03FF)
    }

    @Test("the progress ring clamps its fraction; the contact label shows the force to two decimals")
    func effects() {
        #expect(ProgressRing(center: Point(x: 0, y: 0), fraction: 1.7).fraction == 1)
        #expect(ProgressRing(center: Point(x: 0, y: 0), fraction: -1).fraction == 0)
        #expect(ProgressRing(center: Point(x: 0, y: 0), fraction: .nan).fraction == 0)
        #expect(ContactMarker(center: Point(x: 0, y: 0), force: 0.62).label == "0.62")
        #expect(ContactMarker(center: Point(x: 0, y: 0), force: 0.05).label == "0.05")
        #expect(ContactMarker(center: Point(x: 0, y: 0), force: 1).label == "1.00")
        #expect(ContactMarker(center: Point(x: 0, y: 0), force: nil).label == nil)
        #expect(ContactMarker(center: Point(x: 0, y: 0), force: 2).radius == ContactMarker.baseRadius + ContactMarker.forceRadius)
        let shapes = ContactMarker(center: Point(x: 0, y: 0), force: 1).shapes
        let farthest = shapes.compactMap { shape -> Double? in
            if case .label(_, let center, let size, _) = shape { return abs(center.y) + size }
            return nil
        }.max() ?? 0
        #expect(farthest < Double(ContactMarker.extent), "the label fits in the window")
    }

    @Test("a window's square is cut to the screen, and one wholly off it is none")
    func clipping() {
        let screen = ScreenRect(x: 0, y: 0, width: 800, height: 600)
        let corner = ScreenRect.square(around: Point(x: 3, y: 596), halfSize: 10).intersection(screen)
        #expect(corner == ScreenRect(x: 0, y: 586, width: 14, height: 14))
        #expect(ScreenRect.square(around: Point(x: -50, y: 300), halfSize: 10).intersection(screen) == nil)
        #expect(ScreenRect.square(around: Point(x: 400, y: 300), halfSize: 10) == ScreenRect(x: 390, y: 290, width: 21, height: 21))
    }
}
