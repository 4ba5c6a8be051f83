import Foundation
import Testing
import XorgTestSupport

/// Input with no pauses: taps as fast as the server takes them. Each is held back while the
/// bridge decides, so the bridge must hand them over in order, one replay for each, and none
/// may be lost or merged. Found by the chaos tier (seed 1, episodes 3 and 4).
@Suite("Bursts of input with no pause", .requiresXorg, .serialized)
final class BurstTests: StageSuite {
    /// `count` pen taps 7 pixels apart, each down and up with nothing between them.
    func penTaps(_ count: Int, from start: PixelPoint) throws {
        for index in 0..<count {
            try stage.pen.down(at: (start.x + Double(index * 7), start.y), pressure: 0.3)
            try stage.pen.up()
        }
    }

    /// Where each click lands is not asserted: while a master is frozen the server still moves
    /// its sprite, so a press replayed after later taps were made arrives where the pen is by
    /// then. At a person's pace (taps tens of milliseconds apart, each decided at its lift in
    /// well under a millisecond) every click lands where it was made.
    @Test("six pen taps with no pause: six whole left clicks, in order, none lost or stuck")
    func penTapBurst() throws {
        let bridge = try stage.bridge(["--verbose"])
        try penTaps(6, from: (300, 400))
        _ = stage.window.events { buttonEvents(1, in: $0).filter { $0.kind == .buttonRelease }.count >= 6 }
        let clicks = buttonEvents(1, in: try stage.eventsUntilKeyTapped())
        let whole: [RecordedEventKind] = (0..<6).flatMap { _ in [RecordedEventKind.buttonPress, .buttonRelease] }
        #expect(clicks.map(\.kind) == whole, "\(clicks)\n\(bridge.log)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        #expect(bridge.objects.filter { $0["ownership"] as? String == "bug" }.isEmpty, "\(bridge.objects)")
    }
}
