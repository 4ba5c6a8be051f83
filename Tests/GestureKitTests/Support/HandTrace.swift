import Foundation
@testable import GestureKit
import SeededRandom

/// Generated pen traces of one hand: ordinary taps, strokes and light still presses, and
/// deliberate hard presses, one after another, at 100 Hz.
struct HandTrace {
    /// One contact to generate.
    enum Contact: Hashable {
        /// Down, up to `peak` and lifted within a tenth of a second.
        case tap(peak: Double)
        /// Down and dragged 80 px (past the slop) with the force reaching `peak`.
        case stroke(peak: Double)
        /// Handwriting: moving 2 px a sample from touch-down, the force rising over 0.3 s to
        /// `peak` with a little wobble, for half a second.
        case writing(peak: Double)
        /// Down, up to `peak` in 0.1 s, held still (±0.01 jitter) for 0.6 s, lifted.
        case still(peak: Double)
        /// A pen rested on the screen: as `still`, held for `seconds`.
        case rest(peak: Double, seconds: Double)
        /// Down, climbing at 0.8 of the range a second to `peak`, held 0.3 s, lifted.
        case deliberate(peak: Double)
        /// A deep press made quickly: up to `peak` in 50 ms, held 50 ms, lifted over 30 ms.
        case quickPress(peak: Double)
        /// A tap whose hardest sample is `peak` (a `tap`'s may fall short of it): 7 samples,
        /// lifted at 70 ms.
        case sharpTap(peak: Double)

        var isDeliberate: Bool {
            switch self {
            case .deliberate, .quickPress: true
            case .tap, .sharpTap, .stroke, .writing, .still, .rest: false
            }
        }
    }

    /// A hand: the ranges its ordinary contacts and its deliberate presses peak in.
    struct Hand {
        var ordinary: ClosedRange<Double>
        var deliberate: ClosedRange<Double>

        /// The light hand: ordinary 0.06-0.18, deliberate 0.38-0.50.
        static let light = Hand(ordinary: 0.06...0.18, deliberate: 0.38...0.50)
        /// The heavy hand: ordinary up to 0.74, deliberate 0.9 and above.
        static let heavy = Hand(ordinary: 0.3...0.74, deliberate: 0.9...0.98)
        /// Today's defaults fit it: ordinary 0.15-0.35, deliberate 0.8-0.95.
        static let typical = Hand(ordinary: 0.15...0.35, deliberate: 0.8...0.95)
        /// A firm ordinary touch: contacts up to 0.42, deliberate 0.8-0.95.
        static let firm = Hand(ordinary: 0.15...0.42, deliberate: 0.8...0.95)
        /// Between the light hand and today's defaults: ordinary 0.15-0.3, deliberate 0.45-0.55.
        static let medium = Hand(ordinary: 0.15...0.3, deliberate: 0.45...0.55)
        /// A hand whose every touch reaches today's threshold: ordinary 0.72-0.85, deliberate
        /// 0.95-1 (a soft pen, a firm habit).
        static let heavier = Hand(ordinary: 0.72...0.85, deliberate: 0.95...1.0)

        /// An ordinary contact: half taps, three in ten strokes, one in five still presses.
        func ordinaryContact(_ random: inout SplitMix64) -> Contact {
            let peak = Double.random(in: ordinary, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5: return .tap(peak: peak)
            case 5..<8: return .stroke(peak: peak)
            default: return .still(peak: peak)
            }
        }

        func deliberateContact(_ random: inout SplitMix64) -> Contact {
            .deliberate(peak: Double.random(in: deliberate, using: &random))
        }
    }

    static let pen = InputDevice(id: 2, name: "Generated Pen", kind: .pen, pressure: PressureRange(min: 0, max: 65535))
    static let hertz = 100.0

    var contacts: [Contact] = []
    /// Each contact's touch-down and lift times, in order.
    private(set) var spans: [ClosedRange<Double>] = []
    private(set) var events: [ContactEvent] = []
    private var now = 1.0

    /// `pause`: the time before the next contact, a person's half second unless given (typing
    /// on an on-screen keyboard comes a tap every 0.1-0.25 s).
    mutating func add(_ contact: Contact, random: inout SplitMix64, pause: Double = 0.5) {
        let start = now
        let x = Double.random(in: 200...800, using: &random), y = Double.random(in: 200...600, using: &random)
        var samples: [(dx: Double, force: Double)] = []
        let step = 1 / Self.hertz
        switch contact {
        case .tap(let peak):
            let count = Int.random(in: 4...9, using: &random)
            for index in 0..<count {
                let phase = Double(index) / Double(count - 1)
                samples.append((0, peak * (1 - abs(2 * phase - 1) * 0.7)))
            }
        case .stroke(let peak):
            let count = 40
            for index in 0..<count {
                let rise = Swift.min(1, Double(index) / 8)
                samples.append((Double(index) * 2, peak * rise * (0.9 + 0.1 * Double(index % 3) / 2)))
            }
        case .writing(let peak):
            for index in 0..<50 {
                let rise = Swift.min(1, Double(index) / 30)
                samples.append((Double(index) * 2, peak * rise * (0.95 + 0.05 * sin(Double(index) / 2))))
            }
        case .still(let peak):
            for index in 0..<10 { samples.append((0, peak * Double(index + 1) / 10)) }
            for _ in 0..<60 { samples.append((0, Swift.max(0.01, peak + Double.random(in: -0.01...0.01, using: &random)))) }
        case .rest(let peak, let seconds):
            for index in 0..<10 { samples.append((0, peak * Double(index + 1) / 10)) }
            for _ in 0..<Int(seconds * Self.hertz) {
                samples.append((0, Swift.max(0.01, peak + Double.random(in: -0.01...0.01, using: &random))))
            }
        case .deliberate(let peak):
            var force = 0.05
            while force < peak {
                samples.append((0, force))
                force += 0.8 * step
            }
            for _ in 0..<30 { samples.append((0, peak)) }
            for index in 0..<5 { samples.append((0, peak * (1 - Double(index + 1) / 6))) }
        case .sharpTap(let peak):
            for index in 0..<7 { samples.append((0, peak * (1 - abs(Double(index) - 3) / 3 * 0.7))) }
        case .quickPress(let peak):
            for index in 0..<5 { samples.append((0, peak * Double(index + 1) / 5)) }
            for _ in 0..<5 { samples.append((0, peak)) }
            for index in 0..<3 { samples.append((0, peak * (1 - Double(index + 1) / 4))) }
        }
        for (index, sample) in samples.enumerated() {
            let phase: ContactPhase = index == 0 ? .begin : .move
            events.append(ContactEvent(time: now, device: Self.pen.id, contact: 0, phase: phase,
                                       position: Point(x: x + sample.dx, y: y), pressure: sample.force * 65535))
            now += step
        }
        events.append(ContactEvent(time: now, device: Self.pen.id, contact: 0, phase: .end,
                                   position: Point(x: x + (samples.last?.dx ?? 0), y: y), pressure: 0))
        spans.append(start...now)
        contacts.append(contact)
        now += pause
    }

    /// A sentence typed on an on-screen keyboard: 30 taps peaking within `peaks`, each 0.15 s
    /// after the last one's lift (one run), then a pause of 3 s.
    mutating func addSentence(peaks: ClosedRange<Double>, random: inout SplitMix64) {
        for index in 0..<30 {
            add(.tap(peak: Double.random(in: peaks, using: &random)), random: &random, pause: index == 29 ? 3 : 0.15)
        }
    }

    var trace: Trace {
        Trace(header: TraceHeader(screen: ScreenSize(width: 1920, height: 1080), devices: [Self.pen]), events: events)
    }

    /// Which contacts (by index) a right-click fired on.
    func rightClicked(in outputs: [EngineOutput]) -> Set<Int> {
        var clicked: Set<Int> = []
        for output in outputs {
            guard case .action(let event) = output, event.action == .click(button: 3) else { continue }
            if let index = spans.firstIndex(where: { $0.contains(event.time) }) { clicked.insert(index) }
        }
        return clicked
    }
}

extension EngineOutput {
    var learnedChange: LearnedChange? {
        if case .learned(let change) = self { return change }
        return nil
    }
}
