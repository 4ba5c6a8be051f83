import Foundation
import GestureKit
import SeededRandom

/// Generates a plausible session of pen and touch input: light strokes, deep presses, knob
/// circles and multi-finger touches, at a fixed sample rate. Deterministic for a seed, so
/// benchmarks and soak tests are repeatable.
struct SyntheticInput: Sendable {
    static let pen = InputDevice(id: 6, name: "synthetic pen", kind: .pen, pressure: PressureRange(min: 0, max: 1000))
    static let touch = InputDevice(id: 7, name: "synthetic touch", kind: .touch, pressure: PressureRange(min: 0, max: 2047))
    static let screen = ScreenSize(width: 1920, height: 1080)

    var rate: Double
    private var random: SplitMix64

    init(seed: UInt64 = 1, rate: Double = 1000) {
        self.rate = rate
        self.random = SplitMix64(seed: seed)
    }

    var header: TraceHeader {
        TraceHeader(screen: Self.screen, devices: [Self.pen, Self.touch])
    }

    /// At least `samples` events, whole gestures only.
    mutating func events(samples: Int) -> [ContactEvent] {
        var events: [ContactEvent] = []
        events.reserveCapacity(samples + 2_000)
        var time = 0.0
        var gesture = 0
        while events.count < samples {
            let kind = gesture % 4
            gesture += 1
            switch kind {
            case 0: stroke(into: &events, time: &time)
            case 1: deepPress(into: &events, time: &time)
            case 2: knobCircle(into: &events, time: &time)
            default: twoFingers(into: &events, time: &time)
            }
            time += 0.05
        }
        return events
    }

    /// At least `samples` events of the pen alone: strokes and deep presses in turn.
    mutating func penEvents(samples: Int) -> [ContactEvent] {
        var events: [ContactEvent] = []
        events.reserveCapacity(samples + 400)
        var time = penTime
        var gesture = 0
        while events.count < samples {
            if gesture % 2 == 0 {
                stroke(into: &events, time: &time)
            } else {
                deepPress(into: &events, time: &time)
            }
            gesture += 1
            time += 0.05
        }
        penTime = time
        return events
    }

    private var penTime = 0.0

    private var step: Double { 1 / rate }

    private mutating func point() -> Point {
        Point(x: Double(random.next() % 1600) + 100, y: Double(random.next() % 800) + 200)
    }

    private mutating func stroke(into events: inout [ContactEvent], time: inout Double) {
        let start = point()
        let count = 200 + Int(random.next() % 200)
        for index in 0...count {
            let phase: ContactPhase = index == 0 ? .begin : index == count ? .end : .move
            let position = Point(x: start.x + Double(index) * 0.8, y: start.y + sin(Double(index) / 30) * 40)
            let pressure = index == count ? 0 : 250 + 100 * sin(Double(index) / 17)
            events.append(ContactEvent(time: time, device: Self.pen.id, contact: 0, phase: phase, position: position, pressure: pressure))
            time += step
        }
    }

    private mutating func deepPress(into events: inout [ContactEvent], time: inout Double) {
        let at = point()
        let count = 300
        for index in 0...count {
            let phase: ContactPhase = index == 0 ? .begin : index == count ? .end : .move
            let rise = Double(index) / Double(count)
            let pressure = index == count ? 0 : 1000 * min(1, 2 * rise) * (rise < 0.8 ? 1 : 0.4)
            events.append(ContactEvent(time: time, device: Self.pen.id, contact: 0, phase: phase, position: at, pressure: pressure))
            time += step
        }
    }

    private mutating func knobCircle(into events: inout [ContactEvent], time: inout Double) {
        let center = Point(x: Self.screen.width - 150, y: 150)
        let count = 400
        for index in 0...count {
            let phase: ContactPhase = index == 0 ? .begin : index == count ? .end : .move
            let angle = Double(index) / Double(count) * 2 * .pi
            let position = Point(x: center.x + 70 * cos(angle), y: center.y + 70 * sin(angle))
            events.append(ContactEvent(time: time, device: Self.touch.id, contact: 1, phase: phase, position: position,
                                       pressure: index == count ? 0 : 600))
            time += step
        }
    }

    private mutating func twoFingers(into events: inout [ContactEvent], time: inout Double) {
        let a = point(), b = point()
        let count = 150
        for index in 0...count {
            let phase: ContactPhase = index == 0 ? .begin : index == count ? .end : .move
            for (contact, origin) in [(2, a), (3, b)] {
                let position = Point(x: origin.x + Double(index), y: origin.y)
                events.append(ContactEvent(time: time, device: Self.touch.id, contact: contact, phase: phase, position: position,
                                           pressure: index == count ? 0 : 400))
            }
            time += step
        }
    }
}
