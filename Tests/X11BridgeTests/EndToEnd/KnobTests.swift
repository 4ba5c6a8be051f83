import Foundation
import Testing
import XorgTestSupport

@Suite("Circling in a knob's ring turns it", .requiresXorg, .serialized)
struct KnobTests {
    static let wheelConfig = """
        bindings:
          - name: wheel
            gesture: knob
            devices: [pen]
            center: [640, 400]
            inner-radius: 50
            outer-radius: 150
            step: 30
            clockwise: {scroll: down}
            counterclockwise: {scroll: up}
        """

    static func scrollPresses(_ events: [RecordedEvent]) -> [Int32] {
        events.filter { $0.kind == .buttonPress && ($0.detail == 4 || $0.detail == 5) }.map(\.detail)
    }

    @Test("185° clockwise then 100° back: six clicks down, then three up")
    func scrollKnob() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let bridge = try BridgeProcess(["run", "--json", "--config", try temporaryConfig(Self.wheelConfig)], server: server)

        let forward = KnobPath.points(center: (640, 400), radius: 100, fromDegrees: 0, toDegrees: 185)
        let back = KnobPath.points(center: (640, 400), radius: 100, fromDegrees: 185, toDegrees: 85)
        try server.pen.down(at: forward[0], pressure: 0.2)
        for point in forward.dropFirst() + back.dropFirst() {
            try server.pen.move(to: point)
        }
        try server.pen.up()

        let presses = Self.scrollPresses(window.events { Self.scrollPresses($0).count >= 9 })
        #expect(presses == [5, 5, 5, 5, 5, 5, 4, 4, 4])
        let actions = bridge.objects.filter { $0["action"] as? String == "scroll" }
        #expect(actions.map { $0["direction"] as? String } == Array(repeating: "down", count: 6) + Array(repeating: "up", count: 3))
    }

    /// Turned at 1000 Hz, the knob is read once a frame, in 16 ms batches (BENCHMARKS.md counts
    /// the wakeups: a sixteenth of them; under the test suite's parallel load the counts of both ways overlap,
    /// so this checks what a person notices: every step, in order, none more, nothing held).
    @Test("two fast turns, read in batches: every step arrives, none more, nothing held")
    func fastTurnsReadInBatches() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let bridge = try BridgeProcess(["run", "--json", "--config", try temporaryConfig(Self.wheelConfig)], server: server)

        let path = KnobPath.points(center: (640, 400), radius: 100, fromDegrees: 0, toDegrees: 725, stepDegrees: 1)
        try server.pen.down(at: path[0], pressure: 0.2)
        for point in path.dropFirst() {
            try server.pen.move(to: point)
            usleep(1000)
        }
        try server.pen.up()

        _ = bridge.waitForObjects { $0.contains { $0["state"] as? String == "ended" } }
        #expect(Self.scrollPresses(window.drain()) == Array(repeating: 5, count: 24))
        #expect(window.pointerState()?.buttonsHeld == [])
    }

    /// A line a sample is a flood at 1000 Hz, in a terminal or a service's journal.
    @Test("run's readable lines show a knob's beginning, each step and its end, not each sample; --verbose adds the samples")
    func readableLines() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let config = try temporaryConfig(Self.wheelConfig)
        let path = KnobPath.points(center: (640, 400), radius: 100, fromDegrees: 0, toDegrees: 100, stepDegrees: 1)

        for verbose in [false, true] {
            window.drain()
            let bridge = try BridgeProcess(["run", "--config", config] + (verbose ? ["--verbose"] : []), server: server)
            try server.pen.down(at: path[0], pressure: 0.2)
            for point in path.dropFirst() {
                try server.pen.move(to: point)
            }
            try server.pen.up()
            #expect(bridge.waitForLine(containing: " ended "))
            let knob = bridge.outputLines.filter { $0.contains(" knob ") }
            let states = knob.compactMap { line in ["began", "changed", "ended"].first { line.contains(" \($0) ") } }
            let steps = bridge.outputLines.filter { $0.contains("→ scroll down") }
            #expect(steps.count == 3, "three 30° steps in 100°, verbose \(verbose)")
            if verbose {
                #expect(states.first == "began" && states.last == "ended")
                #expect(states.filter { $0 == "changed" }.count >= 90, "a line for each of the 100 samples")
            } else {
                #expect(states == ["began", "ended"], "\(bridge.outputLines.joined(separator: "\n"))")
            }
            #expect(Self.scrollPresses(window.events { Self.scrollPresses($0).count >= 3 }) == [5, 5, 5])
            _ = bridge.stop(with: SIGTERM)
        }
    }

    @Test("the default config's volume knob sends the volume keys, clockwise up")
    func volumeKnob() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let bridge = try BridgeProcess(["run", "--json"], server: server)

        // The ring is 30..120 px around the point 150 px in from the right and top edges.
        let center: PixelPoint = (Double(server.width) - 150, 150)
        let path = KnobPath.points(center: center, radius: 75, fromDegrees: 0, toDegrees: 95)
            + KnobPath.points(center: center, radius: 75, fromDegrees: 95, toDegrees: 35).dropFirst()
        try server.pen.down(at: path[0], pressure: 0.2)
        for point in path.dropFirst() {
            try server.pen.move(to: point)
        }
        try server.pen.up()

        // 95° turned (past the 30° activation), 15° a step: six up, 5° carried; 60° back: three down.
        func keys(_ events: [RecordedEvent]) -> [String] {
            events.filter { $0.kind == .keyPress }.compactMap(\.keysymName)
        }
        let pressed = keys(window.events { keys($0).count >= 9 })
        #expect(pressed == Array(repeating: "XF86AudioRaiseVolume", count: 6) + Array(repeating: "XF86AudioLowerVolume", count: 3))
        #expect(bridge.objects.filter { $0["action"] as? String == "key" }.count == 9)
    }
}
