import Foundation
import Testing
import XorgTestSupport

/// Left-handed button maps: the logical button an application sees is the master's pointer map
/// (`xmodmap -e "pointer = 3 2 1"`) applied to the device's own map (`xinput set-button-map`)
/// applied to the physical button. A contact is the person's primary button (logical 1)
/// whichever physical button that is, and the bridge's clicks are the logical buttons the
/// config names whatever the maps. Each test has a fresh server, so no map outlives it.
@Suite("Left-handed button maps", .requiresXorg, .serialized)
final class ButtonMapTests: MouseStageSuite {
    static let holdConfig = """
        bindings:
          - {name: hold, gesture: long-press, devices: [mouse], duration: 0.3, action: {click: right}}
        """

    /// Holds the mouse's `button` until `fired` holds (the long press seen), or, to show that
    /// nothing comes, 0.6 s (twice the long press); then what the window got up to a key tapped after.
    func hold(_ button: Int32, until fired: (() -> Bool)? = nil,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> [RecordedEvent] {
        let mouse = try #require(stage.server.mouse)
        stage.window.drain()
        try mouse.press(button: button)
        if let fired {
            // A loaded machine may read the press later than a fixed hold lasts: held until seen.
            #expect(fired(), "the long press fired while the button was held", sourceLocation: sourceLocation)
        } else {
            usleep(600_000)
        }
        try mouse.release(button: button)
        return try stage.eventsUntilKeyTapped()
    }

    /// The primary button (here physical `primary`) held: the long press right-clicks and the
    /// window gets no left press; the secondary (`secondary`) held: a right button held, as
    /// without the bridge, and the bridge recognises nothing.
    func expectLeftHanded(primary: Int32, secondary: Int32, _ bridge: BridgeProcess,
                          sourceLocation: SourceLocation = #_sourceLocation) throws {
        // Held until the window has the right-click: the bridge prints its action before its
        // click reaches the server, and a key tapped behind a release made at the line can come first.
        let held = try hold(primary, until: { self.stage.window.waitForEvents(upTo: 5) { buttonEvents(3, in: $0).count >= 2 } },
                            sourceLocation: sourceLocation)
        #expect(buttonEvents(3, in: held).map(\.kind) == [.buttonPress, .buttonRelease],
                "the primary's long press right-clicks: \(held)\n\(bridge.lines)", sourceLocation: sourceLocation)
        #expect(buttonEvents(1, in: held).isEmpty, "and no left press: \(held)", sourceLocation: sourceLocation)
        #expect(bridge.actions.count == 1, "\(bridge.lines)", sourceLocation: sourceLocation)
        // The kept stroke over: until the bridge has read its lift the mouse is still its own,
        // and a press then is lost (README's known limits; seen on a loaded CI run).
        #expect(try bridge.waitUntilAsleep(quiet: 0.05), sourceLocation: sourceLocation)
        let secondary = try hold(secondary)
        #expect(buttonEvents(3, in: secondary).map(\.kind) == [.buttonPress, .buttonRelease],
                "the secondary is a right button: \(secondary)\n\(bridge.lines)", sourceLocation: sourceLocation)
        #expect(buttonEvents(1, in: secondary).isEmpty, "\(secondary)", sourceLocation: sourceLocation)
        #expect(bridge.actions.count == 1, "the secondary makes no gesture: \(bridge.lines)", sourceLocation: sourceLocation)
        #expect(stage.buttonsStillHeld() == [], sourceLocation: sourceLocation)
    }

    @Test("left-handed by the mouse's own map, set while the bridge runs: a long press of the primary (physical right) right-clicks, the secondary is left alone")
    func leftHandedByDeviceMap() throws {
        let bridge = try stage.bridge(["--verbose"], config: Self.holdConfig)
        try #require(stage.server.mouse).move(by: 300, 300)
        #expect(try stage.runTool("/usr/bin/xinput", ["set-button-map", VirtualMouse.deviceName, "3", "2", "1"]) == 0)
        try expectLeftHanded(primary: 3, secondary: 1, bridge)
    }

    @Test("left-handed by the pointer map (xmodmap pointer = 3 2 1), set before the bridge starts: a long press of the primary right-clicks, the secondary is left alone")
    func leftHandedByPointerMap() throws {
        #expect(try stage.runTool("/usr/bin/xmodmap", ["-e", "pointer = 3 2 1"]) == 0)
        let bridge = try stage.bridge(["--verbose"], config: Self.holdConfig)
        try #require(stage.server.mouse).move(by: 300, 300)
        try expectLeftHanded(primary: 3, secondary: 1, bridge)
    }

    @Test("under the pointer map 3 2 1, set while the bridge runs, a pen kept right-handed by its own map 3 2 1 deep-presses: the window gets a right-click, no left press, nothing held")
    func penDeepPressUnderPointerMap() throws {
        #expect(try stage.runTool("/usr/bin/xinput", ["set-button-map", VirtualPen.deviceName, "3", "2", "1"]) == 0)
        let bridge = try stage.bridge()
        #expect(try stage.runTool("/usr/bin/xmodmap", ["-e", "pointer = 3 2 1"]) == 0)
        // The bridge has read the map's change (MappingNotify) before the pen presses.
        #expect(try bridge.waitUntilAsleep(quiet: 0.05))
        stage.window.drain()

        try stage.pen.down(at: (400, 300), pressure: 0.1)
        try stage.pen.press(to: 0.9)
        try stage.pen.up()

        // The bridge writes an action's line before it sends the click: a key tapped on reading
        // the line can reach the window first (it did in CI), so the click is waited for.
        #expect(bridge.waitForLines { !$0.actions.isEmpty }, "\(bridge.lines)")
        #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 }, "\(bridge.lines)")
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)\n\(bridge.lines)")
        #expect(buttonEvents(1, in: events).isEmpty, "no left press: \(events)")
        #expect(bridge.actions.contains { $0.action == "click" && $0.fields.button == 3 }, "\(bridge.lines)")
        #expect(stage.buttonsStillHeld() == [])
    }
}
