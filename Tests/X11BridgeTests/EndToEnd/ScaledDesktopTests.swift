import CX11
import Foundation
import Testing
import XorgTestSupport
@testable import X11Bridge

/// Found in review: on a high-DPI desktop the feedback grew with the desktop's scale and the
/// gestures' distances did not, so the drawn rings were twice the area where a gesture counted.
/// A config's pixels are pixels at scale 1 and follow `Xft.dpi`, as the feedback does.
@Suite("Gestures on a desktop scaled by Xft.dpi", .requiresXorg, .serialized)
final class ScaledDesktopTests: StageSuite {
    /// Sets the desktop's scale as `xrdb -merge` leaves it: `Xft.dpi` in the root's RESOURCE_MANAGER.
    static func setResourceDPI(_ dpi: Int, on server: HeadlessXorg) throws {
        let connection = try XConnection.open(name: server.displayName, requirements: .init(xtest: false))
        defer { connection.close() }
        let resources = Array("Xft.dpi:\t\(dpi)\n".utf8)
        resources.withUnsafeBufferPointer { bytes in
            _ = XChangeProperty(connection.display, connection.root, XA_RESOURCE_MANAGER, XA_STRING, 8, PropModeReplace,
                                bytes.baseAddress, Int32(bytes.count))
        }
        connection.sync()
    }

    @Test("at Xft.dpi 192 the default config's volume knob sits 300 px in from the top-right corner and turns on a ring of radius 150 there")
    func volumeKnobAtScale() throws {
        try Self.setResourceDPI(192, on: stage.server)
        let bridge = try stage.bridge()
        // At scale 1 the ring is 30..120 px around the point 150 px in; at scale 2, 60..240 px
        // around the point 300 px in. Radius 150 there is outside the ring at scale 1.
        try KnobTests.expectVolumeTurn(stage, bridge, around: (Double(stage.server.width) - 300, 300), radius: 150)
    }

    /// Found in review of a HiDPI desktop: the feedback took `Xft.dpi` from Xlib's copy of the
    /// resources made as the display opened, the gestures from the root as listening began; a
    /// scale the desktop set between (at login, or while `run --replace` waited) drew the rings
    /// at scale 1 around a knob and slop at scale 2.
    @Test("Xft.dpi 192 set while run --replace waits for the bridge before it: the force ring is drawn at scale 2, as at a start after it")
    func scaleSetWhileReplacing() throws {
        let old = try stage.bridge()
        old.child.kill(signal: SIGSTOP)
        let claim = try XConnection.open(name: stage.server.displayName, requirements: .init(xtest: false))
        defer { claim.close() }
        let selection = XInternAtom(claim.display, "_GESTURE_BRIDGE", 0)
        let oldOwner = XGetSelectionOwner(claim.display, selection)
        let new = try BridgeProcess(["run", "--json", "--replace"], server: stage.server, ready: .immediately)
        // Its display open and the claim taken, it waits for the old one to go.
        #expect(poll(timeout: 5, every: 0.02, { XGetSelectionOwner(claim.display, selection) }, until: { $0 != oldOwner && $0 != 0 }) != oldOwner)
        try Self.setResourceDPI(192, on: stage.server)
        old.child.kill(signal: SIGCONT)
        #expect(old.child.waitForExit(timeout: 5) == 75, "\(old.log)")
        #expect(new.waitForEvents(.listening, timeout: 5), "\(new.log)")
        let ring = try Self.firstRing(stage)
        // A bridge started with the scale set already: the ring it draws.
        #expect(new.stop(with: SIGTERM) == 0)
        let restarted = try stage.bridge()
        let expected = try Self.firstRing(stage)
        #expect(ring?.width == expected?.width && (expected?.width ?? 0) > 100, "ring \(String(describing: ring)), at a start after the scale \(String(describing: expected))")
        #expect(restarted.stop(with: SIGTERM) == 0)
    }

    /// The force ring drawn as the pen presses to 0.4 at (400, 300), then the pen lifted.
    static func firstRing(_ stage: Stage) throws -> OverlayWindowLister.Frame? {
        let screen = try #require(OverlayWindowLister(displayName: stage.server.displayName))
        defer { screen.close() }
        try stage.pen.down(at: (400, 300), pressure: 0.1)
        try stage.pen.press(to: 0.4)
        let ring = screen.wait { !$0.isEmpty }.first
        try stage.pen.up()
        _ = screen.wait { $0.isEmpty }
        return ring
    }
}
