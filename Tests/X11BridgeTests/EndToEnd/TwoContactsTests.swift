import Foundation
import Testing
import XorgTestSupport

/// Two contacts down at once on the one master pointer: two fingers, or a finger and the pen.
/// The window takes no touch, so X gives it a touch handed to it as the first button, through
/// pointer emulation.
@Suite("Two contacts at once", .requiresXorg, .serialized)
final class TwoContactsTests: StageSuite {
    /// Found in review: the bridge kept one count of a button however many contacts held it, so
    /// the first drag's end let go of the second's button mid-drag, and the second's end then
    /// released nothing.
    @Test("two fingers each in a middle-button drag: the button stays down until the second lifts")
    func twoFingerDrags() throws {
        let bridge = try stage.bridge(config: ReplugOwnershipTests.middleDragConfig(""))
        let touch = try bridge.deviceID(VirtualTouchscreen.deviceName)
        for (id, x) in [(UInt32(0), 300.0), (1, 700)] {
            try stage.touch.begin(id: id, at: (x, 300), pressure: 0.1)
            try stage.touch.update(id: id, pressure: 0.95)
        }
        #expect(bridge.waitForLines { $0.decisions.filter { $0.device == touch && $0.decision == .claim }.count == 2 },
                "\(bridge.lines)")
        // X numbers the touches itself: the first claimed is the first finger.
        let claimed = bridge.decisions.filter { $0.decision == .claim }.map(\.contact)
        try #require(claimed.count == 2)
        try stage.touch.end(id: 0)
        #expect(bridge.waitForLines { $0.actions.contains { $0.action == "release" && $0.contact == claimed[0] } }, "\(bridge.lines)")
        _ = try stage.eventsUntilKeyTapped()
        #expect(stage.window.pointerState()?.buttonsHeld == [2], "the second finger's drag holds the middle button still")
        try stage.touch.end(id: 1)
        #expect(bridge.waitForLines { $0.actions.contains { $0.action == "release" && $0.contact == claimed[1] } }, "\(bridge.lines)")
        #expect(stage.window.waitForEvents { buttonEvents(2, in: $0).count >= 2 }, "\(bridge.lines)")
        let events = try stage.eventsUntilKeyTapped()
        #expect(buttonEvents(2, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
    }

    /// The window's button events, as kinds and buttons, with the device each came from named
    /// by kind: what is compared with the same script played without a bridge.
    private func buttonsSeen(_ events: [RecordedEvent], pen: Int, touch: Int) -> [String] {
        events.filter { $0.kind == .buttonPress || $0.kind == .buttonRelease }.map { event in
            let source = Int(event.sourceID) == pen ? "pen" : Int(event.sourceID) == touch ? "touch" : "\(event.sourceID)"
            return "\(event.kind) \(event.detail) from \(source)"
        }
    }

    /// Found in review: the second finger's right-click ended the window's grab of the first
    /// finger's emulated press (X counts no emulated touch among a grab's buttons), so the first
    /// finger's release never reached the window, which went on as if the button were held.
    @Test("a finger pressing deep beside a finger the window has goes to the window too: the window gets what it gets without the bridge, the first finger's click whole, no right-click")
    func deepBesideFingerOnWindow() throws {
        func play(_ bridge: BridgeProcess?) throws {
            try stage.touch.begin(id: 0, at: (300, 300), pressure: 0.3)
            try stage.touch.update(id: 0, to: (340, 300), pressure: 0.3)
            #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).count >= 1 }, "the finger reached the window")
            try stage.touch.begin(id: 1, at: (700, 300), pressure: 0.1)
            for force in [0.3, 0.5, 0.65, 0.8, 0.95] {
                try stage.touch.update(id: 1, pressure: force)
            }
            if let bridge {
                // As a replay of the same contacts says it (found reading the day's change).
                #expect(bridge.waitForLines { $0.decisions.contains { $0.reason == .anotherFinger } },
                        "the second finger handed over: \(bridge.lines)")
            }
            try stage.touch.end(id: 1)
            try stage.touch.end(id: 0)
            #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).count >= 2 })
        }
        let bridge = try stage.bridge()
        let (pen, touch) = (try bridge.deviceID(VirtualPen.deviceName), try bridge.deviceID(VirtualTouchscreen.deviceName))
        try play(bridge)
        let seen = buttonsSeen(try stage.eventsUntilKeyTapped(), pen: pen, touch: touch)
        #expect(seen == ["buttonPress 1 from touch", "buttonRelease 1 from touch"], "\(bridge.lines)")
        #expect(bridge.actions.isEmpty, "\(bridge.lines)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        #expect(bridge.stop(with: SIGTERM) == 0)

        stage.window.drain()
        try play(nil)
        #expect(buttonsSeen(try stage.eventsUntilKeyTapped(), pen: pen, touch: touch) == seen, "the same without the bridge")
    }

    /// Found in review: the pen's press could not start the bridge's grab while the window's
    /// grab of the finger's press was on, so it went to the window, yet the bridge counted it
    /// held: it right-clicked too, and let go of a press it did not have.
    @Test("the pen pressing deep beside a finger the window has: the window gets what it gets without the bridge, no right-click; the next deep press is the bridge's")
    func penDeepBesideFingerOnWindow() throws {
        func play(_ bridge: BridgeProcess?, pen: Int) throws {
            try stage.touch.begin(id: 0, at: (300, 300), pressure: 0.3)
            try stage.touch.update(id: 0, to: (340, 300), pressure: 0.3)
            #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).count >= 1 }, "the finger reached the window")
            try stage.pen.down(at: (600, 400), pressure: 0.1)
            try stage.pen.press(to: 0.5)
            try stage.pen.press(to: 0.95)
            if let bridge {
                #expect(bridge.waitForLines { $0.decisions.contains { $0.device == pen && $0.reason == .anotherButton } },
                        "the pen handed over: \(bridge.lines)")
            }
            try stage.pen.up()
            try stage.touch.end(id: 0)
            #expect(stage.window.waitForEvents { buttonEvents(1, in: $0).count >= 3 })
        }
        let bridge = try stage.bridge()
        let (pen, touch) = (try bridge.deviceID(VirtualPen.deviceName), try bridge.deviceID(VirtualTouchscreen.deviceName))
        try play(bridge, pen: pen)
        let seen = buttonsSeen(try stage.eventsUntilKeyTapped(), pen: pen, touch: touch)
        #expect(seen.filter { $0.hasSuffix("from pen") } == ["buttonPress 1 from pen", "buttonRelease 1 from pen"], "\(seen)")
        #expect(!seen.contains { $0.contains(" 3 ") }, "\(seen)")
        #expect(bridge.actions.isEmpty, "\(bridge.lines)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])

        // With both lifted, the pen's deep press is the bridge's again.
        #expect(try bridge.waitUntilAsleep(quiet: 0.05))
        stage.window.drain()
        try stage.pen.down(at: (600, 400), pressure: 0.1)
        try stage.pen.press(to: 0.95)
        try stage.pen.up()
        let rightClick = buttonEvents(3, in: stage.window.events { buttonEvents(3, in: $0).count >= 2 })
        #expect(rightClick.map(\.kind) == [.buttonPress, .buttonRelease], "\(bridge.lines)")
        #expect(buttonEvents(1, in: stage.window.recordedEvents).isEmpty, "\(bridge.lines)")
        #expect(bridge.stop(with: SIGTERM) == 0)

        stage.window.drain()
        try play(nil, pen: pen)
        #expect(buttonsSeen(try stage.eventsUntilKeyTapped(), pen: pen, touch: touch) == seen, "the same without the bridge")
    }

    /// Found in review of the rule above: a palm resting on a window that takes touches would
    /// have kept the pen's deep press from the bridge for as long as it rested there.
    @Suite("on a touch-aware window")
    final class OnTouchAwareWindow: TouchAwareStageSuite {
        @Test("the pen pressing deep beside a finger a touch-aware window has: one right-click, nothing of the pen's press")
        func penDeepBesideFinger() throws {
            let bridge = try stage.bridge()
            let pen = try bridge.deviceID(VirtualPen.deviceName)
            try stage.touch.begin(id: 0, at: (300, 300), pressure: 0.3)
            try stage.touch.update(id: 0, to: (340, 300), pressure: 0.3)
            #expect(bridge.waitForLines { $0.decisions.contains { $0.decision == .release } }, "the finger handed over: \(bridge.lines)")
            try stage.pen.down(at: (600, 400), pressure: 0.1)
            try stage.pen.press(to: 0.5)
            try stage.pen.press(to: 0.95)
            #expect(stage.window.waitForEvents { buttonEvents(3, in: $0).count >= 2 }, "\(bridge.lines)")
            try stage.pen.up()
            try stage.touch.end(id: 0)
            let events = try stage.eventsUntilKeyTapped()
            #expect(buttonEvents(3, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "\(events)")
            #expect(buttonEvents(1, in: events).filter { Int($0.sourceID) == pen }.isEmpty, "\(events)\n\(bridge.lines)")
            #expect(bridge.decisions.contains { $0.device == pen && $0.decision == .claim }, "\(bridge.lines)")
            #expect(stage.window.pointerState()?.buttonsHeld == [])
        }
    }
}
