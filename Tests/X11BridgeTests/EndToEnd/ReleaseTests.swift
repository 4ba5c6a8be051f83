import Foundation
import Glibc
import Testing
import XorgTestSupport

/// Nothing the bridge pressed may stay held, whatever ends the gesture.
@Suite("No button is left held", .requiresXorg, .serialized)
final class ReleaseTests: StageSuite {
    /// Pressing hard holds the middle button down (a drag) until the press ends.
    static let holdConfig = """
        bindings:
          - name: hold
            gesture: deep-press
            devices: [pen, touch]
            threshold: 0.7
            release: 0.5
            action: {press: middle}
            on-end: {release: middle}
        """

    static func middle(_ kind: RecordedEventKind) -> ([RecordedEvent]) -> Bool {
        { events in events.contains { $0.kind == kind && $0.detail == 2 } }
    }

    /// Presses the pen hard until the window sees the middle button go down.
    static func pressUntilHeld(_ stage: Stage, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try stage.pen.down(at: (400, 300), pressure: 0.1)
        try stage.pen.press(to: 0.9)
        #expect(middle(.buttonPress)(stage.window.events(until: middle(.buttonPress))), sourceLocation: sourceLocation)
    }

    @Test("xinput disable of the pen mid-press")
    func deviceDisabled() throws {
        let bridge = try stage.bridge(config: Self.holdConfig)

        try Self.pressUntilHeld(stage)
        #expect(stage.window.pointerState()?.buttonsHeld.contains(2) == true)

        #expect(try stage.runTool("/usr/bin/xinput", ["disable", "test-pen"]) == 0)
        let penID = try bridge.deviceID("test-pen")
        #expect(bridge.waitForLines { $0.events(.deviceDisabled).contains { $0.id == penID } })
        #expect(Self.middle(.buttonRelease)(stage.window.events(until: Self.middle(.buttonRelease))))
        #expect(stage.window.pointerState()?.buttonsHeld == [])
    }

    /// SIGQUIT (Ctrl-\\) too: found in review of a terminal's life, its default ended the
    /// bridge with what it held, and a debug build's backtracer froze every pointer meanwhile.
    @Test("SIGTERM or SIGQUIT while a press binding holds its button", arguments: [SIGTERM, SIGQUIT])
    func terminated(by signal: Int32) throws {
        let bridge = try stage.bridge(config: Self.holdConfig)

        try Self.pressUntilHeld(stage)

        #expect(bridge.stop(with: signal) == 0, "\(bridge.log)")
        #expect(bridge.events(.stopping).last?.reason == "signal", "\(bridge.lines)")
        #expect(Self.middle(.buttonRelease)(stage.window.events(until: Self.middle(.buttonRelease))))
        // The pen's stroke was the bridge's: its tip, still down, holds no button of the
        // pointer the window sees, and its lift reaches the window as nothing.
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        try stage.pen.up()
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        #expect(!stage.window.drain().contains { $0.detail == 1 && ($0.kind == .buttonPress || $0.kind == .buttonRelease) })
        #expect(bridge.actions.contains { $0.action == "release" && $0.fields.button == 2 })
    }

    /// Held still, the pen holds the middle button down until it lifts: a discrete gesture's
    /// `on-end` fires when its contact ends.
    static let longPressHoldConfig = """
        bindings:
          - name: hold
            gesture: long-press
            devices: [pen]
            pressure: any
            duration: 0.3
            action: {press: middle}
            on-end: {release: middle}
        """

    @Test("a long press's on-end releases its button when the pen lifts, or when the bridge stops under it",
          arguments: [false, true])
    func longPressReleased(stopped: Bool) throws {
        let bridge = try stage.bridge(config: Self.longPressHoldConfig)

        try stage.pen.down(at: (400, 300), pressure: 0.2)
        #expect(Self.middle(.buttonPress)(stage.window.events(until: Self.middle(.buttonPress))))
        try stage.pen.move(to: (500, 350))
        if stopped {
            #expect(bridge.stop(with: SIGTERM) == 0)
        } else {
            try stage.pen.up()
        }
        #expect(Self.middle(.buttonRelease)(stage.window.events(until: Self.middle(.buttonRelease))))
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        if stopped { try stage.pen.up() }
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        #expect(bridge.actions.map(\.action) == ["press", "release"])
    }

    /// Found in review: docs/config.md pairs a long press's `{press: left}` with `on-end:
    /// {release: left}` to drag, but a finger's touch the bridge has moves no pointer: the
    /// button went down where the finger was and came up where it lifted, nothing between.
    @Test("a finger's long press then drag: the window sees the button held while the finger moves")
    func longPressDrag() throws {
        let bridge = try stage.bridge(config: """
            bindings:
              - {name: drag, gesture: long-press, devices: [touch], duration: 0.3, action: {press: left}, on-end: {release: left}}
            """)
        try stage.touch.begin(at: (400, 300), pressure: 0.3)
        #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).count >= 1 }, "\(bridge.lines)")
        for step in 1...10 {
            usleep(30_000)
            try stage.touch.update(to: (400 + Double(step) * 20, 300))
        }
        try stage.touch.end()
        // The on-end release's line comes before the release reaches the server: waited for there.
        #expect(stage.window.waitForEvents { $0.contains { $0.kind == .buttonRelease && $0.detail == 1 } }, "\(bridge.lines)")
        let events = try stage.eventsUntilKeyTapped()
        let press = try #require(events.firstIndex { $0.kind == .buttonPress && $0.detail == 1 })
        let release = try #require(events.firstIndex { $0.kind == .buttonRelease && $0.detail == 1 }, "\(events)")
        let dragged = events[press..<release].filter { $0.kind == .motion }
        #expect(dragged.count >= 5, "\(events)")
        #expect(dragged.last?.rootX == 600, "\(events)")
        #expect(stage.buttonsStillHeld() == [], "nothing stays held")
    }
}
