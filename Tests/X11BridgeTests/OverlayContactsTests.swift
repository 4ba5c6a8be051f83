import CX11
@testable import GestureKit
import Testing
import X11Bridge

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
        overlay.showContacts([ActiveContact(key: pen, position: penPoint, force: 0.8), ActiveContact(key: finger, position: fingerPoint, force: nil)])
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

        overlay.showContacts([ActiveContact(key: pen, position: Point(x: 300, y: 260), force: 0.1)])
        #expect(screen.overlayWindows().count == 1, "the lifted finger's circle is gone")
        let later = screen.screenshot()
        #expect(later.histogram(around: fingerPoint, within: 60).keys.count == 1)
        let lighter = try #require(later.distances(of: .contact, around: Point(x: 300, y: 260), within: 52).filter { $0 < 30 }.max())
        #expect(lighter < penOutline - 15, "less force, smaller circle: \(lighter)")

        overlay.showContacts([])
        #expect(screen.overlayWindows().isEmpty)
        screen.expectNoErrors()
    }

    /// Contact-coloured pixels in a strip above a circle, where the label goes.
    static func labelPixels(in shot: OverlayScreenshot, above center: Point, outline: Double) -> Int {
        let bottom = Int(center.y - outline) - 3
        var count = 0
        for y in (bottom - 20)...bottom {
            for x in (Int(center.x) - 20)...(Int(center.x) + 20) where shot[x, y] == .contact {
                count += 1
            }
        }
        return count
    }
}
