import Foundation
import GestureKit
import Testing
import XorgTestSupport

/// A drag lock (the pen's long press holds button 2, a finger's deep press lets it go) through
/// devices going away: it holds while a device that can let go of it is here, and is let go
/// once none is.
@Suite("A drag lock through devices going away", .requiresXorg, .serialized)
final class DragLockTests: StageSuite {
    static let config = """
        decision-timeout: 5
        bindings:
          - name: drag-lock
            gesture: long-press
            devices: [pen]
            duration: 0.3
            action: {press: 2}
          - name: let-go
            gesture: deep-press
            devices: [touch]
            action: {release: 2}
        """

    /// The test's own folder for its config file.
    let directory: LiveConfigTests.ConfigDirectory

    override init() throws {
        directory = try LiveConfigTests.ConfigDirectory()
        try super.init()
    }

    /// The bridge on the drag lock's config.
    func bridge() throws -> BridgeProcess {
        try directory.writeNew(Self.config)
        return try stage.bridge(["--config", directory.file])
    }

    /// Lets go of the lock with the finger's deep press; checks nothing is held after it, and
    /// that the bridge caused no fault and stops cleanly.
    func letGoWithTheFinger(_ bridge: BridgeProcess, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try ReloadMidPressTests.press(stage, by: .touch, at: (420, 320), to: 0.95)
        #expect(stage.window.waitForEvents { buttonEvents(2, in: $0).count >= 2 }, "\(bridge.log)", sourceLocation: sourceLocation)
        #expect(stage.window.pointerState()?.buttonsHeld == [], "\(bridge.log)", sourceLocation: sourceLocation)
        ReloadMidPressTests.expectNoFault(bridge, sourceLocation: sourceLocation)
        #expect(bridge.stop(with: SIGINT) == 0, sourceLocation: sourceLocation)
    }

    /// Long-presses with the pen until the drag lock holds button 2, lifts it, and checks that
    /// the window has the button pressed.
    func lockTheDrag(_ bridge: BridgeProcess, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try stage.pen.down(at: (400, 300), pressure: 0.2)
        #expect(bridge.waitForLines { $0.contains { $0.action?.gesture == "drag-lock" } }, "\(bridge.lines)",
                sourceLocation: sourceLocation)
        #expect(stage.window.waitForEvents { buttonEvents(2, in: $0).count >= 1 }, sourceLocation: sourceLocation)
        try stage.pen.up()
        #expect(stage.window.pointerState()?.buttonsHeld.contains(2) == true, "the drag lock holds button 2: \(bridge.log)",
                sourceLocation: sourceLocation)
    }

    /// Found in review: any device going away with no contact down let go of everything the
    /// bridge held, the drag lock too (a mouse gone to sleep, a tablet re-plugged at resume
    /// dropped what the pen had picked up).
    @Test("the pen that locked the drag goes away and comes back: the drag stays locked, and the finger's deep press lets it go")
    func lockerGoesAway() throws {
        let bridge = try bridge()
        try lockTheDrag(bridge)

        try ReplugOwnershipTests.replug(VirtualPen.deviceName, on: stage, bridge)
        #expect(stage.window.pointerState()?.buttonsHeld.contains(2) == true, "the lock let go: \(bridge.lines)")
        #expect(bridge.events(.releasedHeldInput).isEmpty, "\(bridge.lines)")

        try letGoWithTheFinger(bridge)
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(2, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)\n\(bridge.log)")
    }

    /// Found in review: the first version asked, at every contact's end, for a device that is
    /// here to let go of the button, so a lock taken while the touchscreen was switched off was
    /// let go at the pen's own lift.
    @Test("the touchscreen switched off, the pen locks the drag: the lock outlives the pen's lift; switched back on, the finger's deep press lets go")
    func releaserSwitchedOffDuringTheLock() throws {
        let bridge = try bridge()
        try ReplugOwnershipTests.unplug(VirtualTouchscreen.deviceName, on: stage, bridge)
        try lockTheDrag(bridge)
        // The lift's end has been read: the bridge is idle again.
        #expect(try bridge.waitUntilAsleep(quiet: 0.2), "\(bridge.lines)")
        #expect(bridge.events(.releasedHeldInput).isEmpty, "\(bridge.lines)")
        #expect(stage.window.pointerState()?.buttonsHeld.contains(2) == true, "the lock let go at the lift: \(bridge.log)")

        try ReplugOwnershipTests.plugBack(VirtualTouchscreen.deviceName, on: stage, bridge)
        try letGoWithTheFinger(bridge)
    }

    @Test("the touchscreen, the one device that could let go of the drag, goes away: the drag is let go at once")
    func releaserGoesAway() throws {
        let bridge = try bridge()
        try lockTheDrag(bridge)

        try ReplugOwnershipTests.unplug(VirtualTouchscreen.deviceName, on: stage, bridge)
        #expect(bridge.waitForEvents(.releasedHeldInput), "\(bridge.lines)")
        #expect(stage.window.waitForEvents { buttonEvents(2, in: $0).contains { $0.kind == .buttonRelease } }, "\(bridge.log)")
        #expect(stage.window.pointerState()?.buttonsHeld == [], "button 2 left held with nothing to let go of it: \(bridge.log)")
        ReloadMidPressTests.expectNoFault(bridge)
        #expect(bridge.stop(with: SIGINT) == 0)
    }
}
