import CX11
@testable import GestureKit
import Testing
@testable import X11Bridge

@Suite("The touch view on an X screen", .requiresOverlayXvfb)
final class OverlayContactsTests: OverlaySuite {
    @Test("each contact is a circle sized by its force, labelled when it has one, gone when it lifts")
    func contacts() throws {
        let overlay = try screen.openOverlay()
        defer { overlay.close() }
        let pen = ContactKey(device: 12, contact: 0)
        let finger = ContactKey(device: 14, contact: 7)
        let penPoint = Point(x: 250, y: 250)
        let fingerPoint = Point(x: 550, y: 350)
        overlay.showContacts([ActiveContact(key: pen, position: penPoint, force: 0.8), ActiveContact(key: finger, position: fingerPoint, force: nil)], now: 0)
        #expect(screen.overlayWindows().count == 2)
        #expect(overlay.nextDeadline == nil)

        let shot = screen.screenshot()
        try shot.save(as: "overlay-contacts")
        let penOutline = try #require(shot.distances(of: .contact, around: penPoint, within: 52).filter { $0 < 52 }.max())
        let fingerOutline = try #require(shot.distances(of: .contact, around: fingerPoint, within: 52).max())
        #expect(penOutline > fingerOutline + 15, "a harder press is a bigger circle: \(penOutline) vs \(fingerOutline)")
        // The force label sits above the pen's circle; the finger has no pressure, so no label.
        #expect(Self.labelPixels(in: shot, above: penPoint, outline: penOutline) > 10)
        #expect(Self.labelPixels(in: shot, above: fingerPoint, outline: fingerOutline) == 0)
        // The circle's inside shows the desktop through a sparse fill: never a solid disc.
        let inside = shot.histogram(around: penPoint, within: 20)
        #expect((inside[OverlayTestDisplay.background] ?? 0) > inside.values.reduce(0, +) / 2, "\(inside)")
        #expect(screen.windowUnderPointer(x: 250, y: 250) == screen.application)

        overlay.showContacts([ActiveContact(key: pen, position: Point(x: 300, y: 260), force: 0.1)], now: 0.1)
        #expect(screen.overlayWindows().count == 1, "the lifted finger's circle is gone")
        let later = screen.screenshot()
        #expect(later.histogram(around: fingerPoint, within: 60).keys.count == 1)
        let lighter = try #require(later.distances(of: .contact, around: Point(x: 300, y: 260), within: 52).filter { $0 < 30 }.max())
        #expect(lighter < penOutline - 15, "less force, smaller circle: \(lighter)")

        overlay.showContacts([], now: 0.2)
        #expect(screen.overlayWindows().isEmpty)
        screen.expectNoErrors()
    }

    /// Found in review of a screencast with `--show-touches`: each sample redrew its circle, and
    /// without a compositor five fingers at 120 Hz kept Xorg busy for seconds.
    @Test("a circle that changes is redrawn once a frame, its latest state when the frame comes; a lift takes it down at once")
    func circlesOncePerFrame() throws {
        let overlay = try screen.openOverlay()
        defer { overlay.close() }
        let pen = ContactKey(device: 12, contact: 0)
        let finger = ContactKey(device: 14, contact: 0)
        overlay.showContacts([ActiveContact(key: pen, position: Point(x: 250, y: 250), force: 0.2),
                              ActiveContact(key: finger, position: Point(x: 550, y: 350), force: 0.2)], now: 0)
        screen.connection.sync()
        let drawn = screen.overlayWindows()
        try #require(drawn.count == 2)
        let frameOf = { (window: Window) in (self.screen.attributes(of: window).x, self.screen.attributes(of: window).y) }
        let before = drawn.map(frameOf)
        // Samples within the frame move nothing yet; the circle is due at the frame's end.
        for (index, x) in [260.0, 270, 280].enumerated() {
            overlay.showContacts([ActiveContact(key: pen, position: Point(x: x, y: 250), force: 0.2 + Double(index) * 0.1),
                                  ActiveContact(key: finger, position: Point(x: 550, y: 350), force: 0.2)], now: 0.01 * Double(index + 1))
        }
        screen.connection.sync()
        #expect(screen.overlayWindows().map(frameOf).elementsEqual(before, by: ==), "not redrawn within the frame")
        let due = try #require(overlay.nextDeadline)
        #expect(abs(due - FeedbackOverlay.shapedFrameInterval) < 1e-9, "due at the frame's end: \(due)")
        overlay.tick(now: due)
        screen.connection.sync()
        let centers = screen.overlayWindows().map { screen.attributes(of: $0) }.map { Int($0.x + $0.width / 2) }
        #expect(centers.sorted() == [280, 550], "the pen's circle at its latest sample's place: \(centers)")
        #expect(overlay.nextDeadline == nil)
        // The finger lifts within the pen's next frame: its circle goes at once.
        overlay.showContacts([ActiveContact(key: pen, position: Point(x: 290, y: 250), force: 0.5)], now: due + 0.01)
        #expect(screen.overlayWindows().count == 1)
        screen.expectNoErrors()
    }

    /// Found in review of a screencast: a finger at the top of the screen (a browser's tabs)
    /// showed no force at all, its label above the circle cut off by the monitor's edge.
    @Test("a contact at the top of the screen shows its force label under its circle")
    func labelAtTheTop() throws {
        let overlay = try screen.openOverlay()
        defer { overlay.close() }
        let top = Point(x: 400, y: 8)
        overlay.showContacts([ActiveContact(key: ContactKey(device: 12, contact: 0), position: top, force: 0.73)], now: 0)
        let shot = screen.screenshot()
        try shot.save(as: "overlay-contacts-top")
        // The circle's outline at 0.73 (`ContactMarker.radius`), the label a gap under it.
        let outline = ContactMarker.baseRadius + ContactMarker.forceRadius * 0.73 + ContactMarker.lineWidth
        let below = Self.contactPixels(in: shot, rows: (Int(top.y + outline) + 1)..., around: top.x)
        #expect(below > 10, "the label under the circle: \(below) pixels")
        screen.expectNoErrors()
    }

    /// Contact-coloured pixels in a strip above a circle, where the label goes.
    static func labelPixels(in shot: OverlayScreenshot, above center: Point, outline: Double) -> Int {
        let bottom = Int(center.y - outline) - 3
        return contactPixels(in: shot, rows: (bottom - 20)..., around: center.x)
    }

    /// Contact-coloured pixels in the 21 rows from `rows`' first, 20 px either side of `x`.
    static func contactPixels(in shot: OverlayScreenshot, rows: PartialRangeFrom<Int>, around x: Double) -> Int {
        var count = 0
        for row in rows.lowerBound...(rows.lowerBound + 20) {
            for column in (Int(x) - 20)...(Int(x) + 20) where shot[column, row] == .contact {
                count += 1
            }
        }
        return count
    }
}
