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
}
