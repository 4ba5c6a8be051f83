import Foundation
import Testing
import XorgTestSupport

/// Ownership through the ordinary life of a desktop: devices disabled and enabled (a tablet
/// re-plugged, a resume, a KVM switch) while the bridge runs. Whatever comes and goes, a deep
/// press is a right-click and nothing else, a tap arrives whole, and the bridge causes no X error.
@Suite("Ownership through re-plugs", .requiresXorg, .serialized)
final class ReplugOwnershipTests: StageSuite {
    /// `xinput disable NAME` then `xinput enable NAME`, and the bridge has seen the device back.
    static func replug(_ name: String, on stage: Stage, _ bridge: BridgeProcess,
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let added = bridge.events("device-added").count
        for action in ["disable", "enable"] {
            #expect(try stage.runTool("/usr/bin/xinput", [action, name]) == 0, "xinput \(action) \(name)", sourceLocation: sourceLocation)
        }
        #expect(bridge.waitForObjects { objects in
            objects.filter { $0["event"] as? String == "device-added" }.count > added
        }, "the bridge saw \(name) come back: \(bridge.objects)", sourceLocation: sourceLocation)
    }

    /// The touch deep press of the report: force 0.1, 0.3, 0.5, 0.65, 0.95 ten milliseconds
    /// apart, held 50 ms, eased back through 0.6, 0.4, 0.2, lifted, at `point`.
    static func touchDeepPress(_ stage: Stage, at point: PixelPoint) throws {
        try stage.touch.begin(at: point, pressure: 0.1)
        for force in [0.3, 0.5, 0.65, 0.95] {
            usleep(10_000)
            try stage.touch.update(pressure: force)
        }
        usleep(50_000)
        for force in [0.6, 0.4, 0.2] {
            usleep(10_000)
            try stage.touch.update(pressure: force)
        }
        try stage.touch.end()
    }

    /// What the window got from one touch deep press at `point`: a right-click, no left press,
    /// nothing held.
    static func expectRightClickOnly(_ stage: Stage, _ bridge: BridgeProcess, at point: PixelPoint,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        stage.window.drain()
        try touchDeepPress(stage, at: point)
        _ = stage.window.events { buttonEvents(3, in: $0).count >= 2 }
        // Everything the press gave, up to a key tapped after it: a late left press shows too.
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)\n\(bridge.log)",
                sourceLocation: sourceLocation)
        #expect(buttonEvents(1, in: events).isEmpty, "no left press: \(events)\n\(bridge.log)", sourceLocation: sourceLocation)
        #expect(stage.window.pointerState()?.buttonsHeld == [], sourceLocation: sourceLocation)
    }

    @Test("the pen disabled and enabled while idle: a touch deep press is still a right-click alone, with no X error")
    func penReplugThenTouchDeepPress() throws {
        let bridge = try stage.bridge()
        try Self.expectRightClickOnly(stage, bridge, at: (400, 300))
        try Self.replug("test-pen", on: stage, bridge)
        for point: PixelPoint in [(420, 320), (440, 340)] {
            try Self.expectRightClickOnly(stage, bridge, at: point)
        }
        #expect(bridge.events("x-error").isEmpty, "\(bridge.objects)")
    }
}
