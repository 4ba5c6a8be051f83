import Foundation
import GestureKit
import Testing
import XorgTestSupport

/// Presses as real hands make them, through the virtual pen on the headless Xorg, with the
/// built-in default config: slow, deliberate deep presses right-click and nothing else; a light
/// press held still reaches the application soon after its force levels off.
@Suite("Real presses, live", .requiresXorg, .serialized)
final class RealPressTests: StageSuite {
    static let point: PixelPoint = (400, 300)

    static func rightClicks(_ events: [RecordedEvent]) -> [RecordedEvent] { buttonEvents(3, in: events) }
    static func leftPresses(_ events: [RecordedEvent]) -> [RecordedEvent] {
        buttonEvents(1, in: events).filter { $0.kind == .buttonPress }
    }

    /// A repeatable jitter in -1...1 for sample `index` of press `seed` (a hash, not a generator:
    /// the same press in every run).
    static func jitter(_ index: Int, seed: Int) -> Double {
        let x = sin(Double(index * 7919 + seed * 104_729) * 12.9898) * 43758.5453
        return 2 * (x - x.rounded(.down)) - 1
    }

    /// Sleeps until `time` seconds after `start`.
    static func wait(until time: Double, since start: Date) {
        let remaining = time - Date().timeIntervalSince(start)
        if remaining > 0 { usleep(UInt32(remaining * 1_000_000)) }
    }

    /// Drives the pen through `curve` in real time (times from touch-down); lifts at its end.
    /// Calls `tick` after each sample with the seconds since touch-down.
    static func press(_ pen: VirtualPen, along curve: [(time: Double, force: Double)],
                      tick: (Double) throws -> Void = { _ in }) throws {
        guard let first = curve.first else { return }
        let start = Date()
        try pen.down(at: point, pressure: first.force)
        try tick(0)
        for sample in curve.dropFirst() {
            wait(until: sample.time, since: start)
            try pen.press(to: sample.force)
            try tick(Date().timeIntervalSince(start))
        }
        try pen.up()
    }

    @Test("the six presses of the iPhone recording, pressed in real time with the pen: six right-clicks, no left press")
    func iPhoneRecordingLive() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("GestureKitTests/Fixtures/ios-3dtouch-force-60s.jsonl")
        let trace = try TraceReader.load(path: fixture.path)
        let range = try #require(trace.header.devices.first?.pressure)
        // Each contact's force curve, its times from its own touch-down.
        var curves: [[(time: Double, force: Double)]] = []
        var start = 0.0
        for event in trace.events {
            guard let raw = event.pressure else { continue }
            switch event.phase {
            case .begin:
                start = event.time
                curves.append([(0, range.normalize(raw))])
            case .move:
                curves[curves.count - 1].append((event.time - start, range.normalize(raw)))
            case .end, .cancel, .hover:
                break
            }
        }
        #expect(curves.count == 6)

        let bridge = try stage.bridge()
        for curve in curves {
            try Self.press(stage.pen, along: curve)
            usleep(200_000)
        }

        let events = stage.window.events { Self.rightClicks($0).count >= 12 }
        let clicks = Self.rightClicks(events)
        #expect(clicks.map(\.kind) == Array(repeating: [RecordedEventKind.buttonPress, .buttonRelease], count: 6).flatMap { $0 })
        #expect(clicks.allSatisfy { $0.rootX == Self.point.x && $0.rootY == Self.point.y })
        #expect(Self.leftPresses(events).isEmpty, "the window got a left press: \(events.filter { $0.kind == .buttonPress })")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        #expect(bridge.objects.filter { $0["action"] as? String == "click" && $0["button"] as? Int == 3 }.count == 6)
        let decisions = bridge.objects.filter { $0["decision"] != nil }
        #expect(decisions.count == 6 && decisions.allSatisfy { $0["decision"] as? String == "claim" }, "\(decisions)")
    }

    /// A light press held still with a jittering force (±2 % of the range around 0.2, at
    /// 100 Hz): the window gets the pen's own press, while the pen is still down. Returns the
    /// seconds from touch-down to the first sample after which the window had it.
    static func flatPress(_ server: HeadlessXorg, _ window: RecorderWindow, seed: Int) throws -> Double? {
        let curve = (0...60).map { (Double($0) / 100, 0.2 + 0.02 * jitter($0, seed: seed)) }
        var arrived: Double?
        _ = window.drain()
        try Self.press(server.pen, along: curve) { elapsed in
            if arrived == nil, !Self.leftPresses(window.events(waitingUpTo: 0) { _ in true }).isEmpty {
                arrived = elapsed
            }
        }
        return arrived
    }

    @Test("a light press held still with a jittering force reaches the window while the pen is down, as the pen's own press; never a right-click")
    func flatPressLive() throws {
        let bridge = try stage.bridge()

        var delays: [Double] = []
        for seed in 1...20 {
            let arrived = try Self.flatPress(stage.server, stage.window, seed: seed)
            #expect(arrived != nil, "press \(seed) reached the window only at its lift (0.6 s)")
            delays.append(arrived ?? 0.6)
            let events = stage.window.events { buttonEvents(1, in: $0).count >= 2 }
            #expect(Self.rightClicks(events).isEmpty)
        }
        delays.sort()
        print("light press, ±2 % at 100 Hz, live: in the window after p50 \(Int(delays[10] * 1000)) ms, p95 \(Int(delays[18] * 1000)) ms, max \(Int((delays.last ?? 0) * 1000)) ms")
        #expect(!bridge.objects.contains { $0["action"] != nil })
        let reasons = bridge.objects.filter { $0["decision"] != nil }.compactMap { $0["reason"] as? String }
        #expect(reasons == Array(repeating: "levelled-off", count: 20), "\(reasons)")
        #expect(stage.window.pointerState()?.buttonsHeld == [])
    }

    @Test("a press climbing at 0.2 of the range a second right-clicks at the threshold, after 3.5 s held; the window never sees it begin")
    func slowClimbLive() throws {
        let bridge = try stage.bridge()

        let curve = (0...100).map { index -> (Double, Double) in
            let time = Double(index) / 25
            return (time, min(0.8, 0.01 + 0.2 * time))
        }
        try Self.press(stage.pen, along: curve)

        let events = stage.window.events { Self.rightClicks($0).count >= 2 }
        #expect(Self.rightClicks(events).map(\.kind) == [.buttonPress, .buttonRelease])
        #expect(Self.leftPresses(events).isEmpty)
        #expect(bridge.objects.contains { $0["recognizer"] as? String == "deep-press" && $0["state"] as? String == "began" })
    }

    @Test("a press resting above an ordinary touch's force is handed to the window at the hold limit")
    func holdLimitLive() throws {
        let config = try temporaryConfig("""
            hold-limit: 1.5
            bindings:
              - {name: right-click, gesture: deep-press, devices: [pen], threshold: 0.7, action: {click: right}}
            """)
        let bridge = try stage.bridge(["--config", config])

        // Up to 0.5 in a quarter of a second, then resting there, jittering a little.
        let curve = (0...250).map { index -> (Double, Double) in
            let time = Double(index) / 100
            return (time, min(0.5, 2 * time) + (time > 0.25 ? 0.01 * Self.jitter(index, seed: 5) : 0))
        }
        var handedOver: Double?
        try Self.press(stage.pen, along: curve) { elapsed in
            if handedOver == nil, !Self.leftPresses(stage.window.events(waitingUpTo: 0) { _ in true }).isEmpty {
                handedOver = elapsed
            }
        }
        let arrived = try #require(handedOver, "the press reached the window only at its lift")
        #expect(arrived >= 1.5, "handed over after \(arrived) s, before the limit")
        let decision = bridge.objects.first { $0["decision"] != nil }
        #expect(decision?["reason"] as? String == "limit" && decision?["held"] as? Double == 1.5, "\(String(describing: decision))")
        #expect(Self.rightClicks(stage.window.events { buttonEvents(1, in: $0).count >= 2 }).isEmpty)
        #expect(!bridge.objects.contains { $0["action"] != nil })
    }

    @Suite("on a touch-aware window")
    final class OnTouchAwareWindow: TouchAwareStageSuite {
        @Test("a finger pressing on slowly (the recording's fifth press, 3.3 s to the threshold) right-clicks, and a touch-aware window never sees its touch; a light touch after it arrives whole")
        func slowTouchLive() throws {
            let bridge = try stage.bridge()

            // About 0.21 of the range a second, as the fifth press climbs, at 35 Hz.
            let start = Date()
            try stage.touch.begin(at: RealPressTests.point, pressure: 0.01)
            for index in 1...120 {
                let time = Double(index) / 35
                RealPressTests.wait(until: time, since: start)
                try stage.touch.update(pressure: min(0.8, 0.01 + 0.21 * time))
            }
            try TouchOwnershipTests.liftAfterRightClick(stage.server, stage.window)

            let events = stage.window.events { RealPressTests.rightClicks($0).count >= 2 }
            #expect(RealPressTests.rightClicks(events).map(\.kind) == [.buttonPress, .buttonRelease])
            #expect(TouchOwnershipTests.touches(in: events).isEmpty)
            #expect(RealPressTests.leftPresses(events).isEmpty)

            _ = stage.window.drain()
            try stage.touch.tap(at: (420, 320), pressure: 0.3)
            let next = TouchOwnershipTests.touches(in: stage.window.events { $0.contains { $0.kind == .touchEnd } })
            #expect(next.first?.kind == .touchBegin && next.last?.kind == .touchEnd, "\(next)")
            #expect(bridge.objects.filter { $0["action"] as? String == "click" }.count == 1)
        }

        @Test("a finger resting lightly with a jittering force is handed to a touch-aware window while it is down")
        func restingTouchLive() throws {
            let bridge = try stage.bridge()

            let start = Date()
            try stage.touch.begin(at: RealPressTests.point, pressure: 0.2)
            var arrived: Double?
            for index in 1...60 {
                let time = Double(index) / 100
                RealPressTests.wait(until: time, since: start)
                try stage.touch.update(pressure: 0.2 + 0.02 * RealPressTests.jitter(index, seed: 11))
                if arrived == nil, stage.window.events(waitingUpTo: 0, until: { _ in true }).contains(where: { $0.kind == .touchBegin }) {
                    arrived = time
                }
            }
            try stage.touch.end()
            #expect(arrived != nil, "the touch reached the window only at its end")
            let events = stage.window.events { $0.contains { $0.kind == .touchEnd } }
            #expect(RealPressTests.rightClicks(events).isEmpty)
            #expect(bridge.objects.contains { $0["gesture"] as? String == "right-click" && $0["state"] as? String == "failed" },
                    "the bridge saw the touch and let its deep press go")
        }
    }
}
