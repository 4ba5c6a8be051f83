import Foundation
import GestureKit
import Glibc
import Testing
import XorgTestSupport

/// A device whose driver declares pressure it never moves, and does not say what the device
/// is: after two presses that never leave the minimum it counts as without pressure, so its
/// presses stop waiting for a deep press that cannot come; pressing with force brings its
/// pressure back.
@Suite("A declared pressure that never moves", .requiresXorg, .serialized)
final class DeadPressureTests: StageSuite {
    @Test("two still presses: the pen counts as without pressure, its next press is handed over at once; a real press restores it")
    func deadThenAlive() throws {
        let bridge = try stage.bridge(["--json"])
        let pen = try bridge.deviceID("test-pen")
        func decisions() -> [DecisionLine] {
            bridge.decisions.filter { $0.device == pen }
        }
        var presses = 0
        /// A press held still until `reported` holds of what the bridge said, then lifted; the next
        /// comes once the window has this one's release, as a hand lets go before pressing again.
        func press(pressure: Double, until reported: @escaping () -> Bool) throws {
            try stage.pen.down(at: (400, 300), pressure: pressure)
            #expect(bridge.waitForLines { _ in reported() }, "press \(presses + 1): \(bridge.lines)")
            try stage.pen.up()
            presses += 1
            let released = { (events: [RecordedEvent]) in buttonEvents(1, in: events).filter { $0.kind == .buttonRelease }.count >= presses }
            #expect(released(stage.window.events(until: released)), "press \(presses) reached the window whole")
        }

        // Held for a deep press that never comes: handed over at the decision timeout.
        try press(pressure: 0) { decisions().count >= 1 }
        try press(pressure: 0) { decisions().count >= 2 }
        #expect(bridge.waitForEvents(.pressureDead), "\(bridge.lines)")
        #expect(bridge.events(.pressureDead).first?.deviceID == pen)
        #expect(decisions().map(\.reason) == [.timeout, .timeout], "\(decisions())")

        // Now only gestures that need no pressure listen (the knob, not here): handed over at once.
        try press(pressure: 0) { decisions().count >= 3 }
        let third = try #require(decisions().dropFirst(2).first, "\(decisions())")
        #expect(third.reason == .failed && third.held < 0.1, "\(third)")

        // A press with force: the pressure counts again, and the next press right-clicks.
        try press(pressure: 0.3) { !bridge.events(.pressureAlive).isEmpty }
        #expect(bridge.waitForEvents(.pressureAlive), "\(bridge.lines)")
        try stage.pen.down(at: (400, 300), pressure: 0.1)
        try stage.pen.press(to: 0.9)
        let claimed = bridge.waitForLines { _ in decisions().contains { $0.winner == "right-click" } }
        try stage.pen.up()
        #expect(claimed, "\(decisions())")
        #expect(bridge.ownerships.filter { $0.ownership == .bug }.isEmpty, "\(bridge.lines)")
    }

    /// Found in review of fast user switching: a switch away and back disables and enables every
    /// device, and the bridge watched a pressure it had found dead afresh, so the first two still
    /// presses after every switch back waited out the decision timeout again.
    @Test("the pen's pressure found dead, the pen disabled and enabled (a VT switched away from and back): its next still press is handed over at once")
    func deadAcrossASwitch() throws {
        let bridge = try stage.bridge(["--json"])
        let pen = try bridge.deviceID("test-pen")
        func decisions() -> [DecisionLine] { bridge.decisions.filter { $0.device == pen } }
        for index in 0..<2 {
            try stage.pen.down(at: (400, 300), pressure: 0)
            #expect(bridge.waitForLines { _ in decisions().count > index }, "\(bridge.lines)")
            try stage.pen.up()
            let released = { (events: [RecordedEvent]) in buttonEvents(1, in: events).filter { $0.kind == .buttonRelease }.count > index }
            #expect(released(stage.window.events(until: released)), "press \(index + 1) reached the window whole")
        }
        #expect(bridge.waitForEvents(.pressureDead), "\(bridge.lines)")
        try ReplugOwnershipTests.unplug(VirtualPen.deviceName, on: stage, bridge)
        try ReplugOwnershipTests.plugBack(VirtualPen.deviceName, on: stage, bridge)
        try stage.pen.down(at: (400, 300), pressure: 0)
        #expect(bridge.waitForLines { _ in decisions().count >= 3 }, "\(bridge.lines)")
        try stage.pen.up()
        let third = try #require(decisions().dropFirst(2).first, "\(decisions())")
        #expect(third.reason == .failed && third.held < 0.1, "watched afresh after the switch: \(third)")
        #expect(bridge.events(.pressureDead).count == 1, "\(bridge.lines)")
    }

    @Test("a deep press only, the pen's pressure found dead: the press that brings it back reaches the window as it went, a left click, not also a right-click")
    func aliveByADeepPress() throws {
        let bridge = try stage.bridge(config: """
            bindings:
              - name: right-click
                gesture: deep-press
                devices: [pen]
                action: {click: right}
            """)
        let pen = try bridge.deviceID("test-pen")
        for index in 0..<2 {
            try stage.pen.down(at: (400, 300), pressure: 0)
            #expect(bridge.waitForLines { $0.decisions.filter { $0.device == pen }.count > index }, "\(bridge.lines)")
            try stage.pen.up()
            // Handed over at the timeout, the press reaches the window whole before the next:
            // read here, it cannot be taken for the next press's.
            let released = { (events: [RecordedEvent]) in buttonEvents(1, in: events).filter { $0.kind == .buttonRelease }.count > index }
            #expect(released(stage.window.events(until: released)), "press \(index + 1) reached the window whole")
        }
        #expect(bridge.waitForEvents(.pressureDead), "\(bridge.lines)")
        // Nothing listens to the pen now: the bridge holds none of its presses back, and this
        // one reaches the window at once, whatever its force turns out to be.
        stage.window.drain()
        try stage.pen.down(at: (420, 300), pressure: 0.1)
        try stage.pen.press(to: 0.95)
        try stage.pen.up()
        #expect(bridge.waitForEvents(.pressureAlive), "\(bridge.lines)")
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(1, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
        #expect(buttonEvents(3, in: events).isEmpty, "no right-click on top of the left one: \(events)")
        // Pressure counts again: the next deep press right-clicks alone.
        try ReplugOwnershipTests.expectRightClickOnly(stage, bridge, by: .pen, at: (440, 320))
    }
}
