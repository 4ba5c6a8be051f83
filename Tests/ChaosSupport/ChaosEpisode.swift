/// One episode: a few steps on a fresh server and a fresh bridge, and whether every core is
/// kept busy meanwhile. It follows from the run's seed and its number alone (`generate`).
public struct ChaosEpisode: Codable, Sendable, Hashable {
    public var seed: UInt64
    public var number: Int
    /// A busy loop on every core while the episode plays.
    public var busy: Bool
    public var steps: [ChaosStep]

    public init(seed: UInt64, number: Int, busy: Bool, steps: [ChaosStep]) {
        self.seed = seed
        self.number = number
        self.busy = busy
        self.steps = steps
    }

    /// What the episode is called in summaries and failure files.
    public var name: String { "seed \(seed) episode \(number)" }

    /// Episode `number` of the run seeded `seed`: two to five steps drawn from everything a day
    /// at the desk brings, at most one device re-plugged (the step after it uses the other one).
    /// With `mouse`, a plain mouse's steps are drawn too: a run of its own (the same seed and
    /// number give another episode), so the runs without one play as they always have.
    public static func generate(seed: UInt64, number: Int, mouse: Bool = false) -> ChaosEpisode {
        var random = ChaosRandom(seed: seed, episode: number)
        let busy = random.chance(0.25)
        let count = Int.random(in: 2...5, using: &random)
        var steps: [ChaosStep] = []
        var unplugged: ChaosDevice?
        while steps.count < count {
            let step = drawStep(&random, allowReplug: unplugged == nil, mouse: mouse)
            // A device re-plugged is not driven again in this episode (`ChaosStep.replugged`).
            if let unplugged, step.devices.contains(unplugged) { continue }
            unplugged = unplugged ?? step.replugged
            steps.append(step)
        }
        return ChaosEpisode(seed: seed, number: number, busy: busy, steps: steps)
    }

    private static func drawStep(_ random: inout ChaosRandom, allowReplug: Bool, mouse: Bool) -> ChaosStep {
        let device = ChaosDevice.allCases.randomElement(using: &random) ?? .pen
        // Away from the knob's ring in the top-right corner.
        let point = ChaosPoint(x: random.value(in: 100...900, places: 0), y: random.value(in: 260...700, places: 0))
        let kinds = allowReplug ? 12 : 10
        let draw = Int.random(in: 0..<(kinds + (mouse ? 4 : 0)), using: &random)
        if draw >= kinds { return drawMouseStep(draw - kinds, &random, at: point) }
        switch draw {
        case 0, 1:
            return .tap(device, at: point)
        case 2, 3:
            let slow = random.chance(0.4)
            let disturbance: ChaosDisturbance? = random.chance(0.25)
                ? (random.chance(0.5) ? .reloadBeforeThreshold : .reloadAfterThreshold) : nil
            return .deepPress(device, at: point,
                              samples: slow ? Int.random(in: 12...30, using: &random) : Int.random(in: 3...6, using: &random),
                              interval: slow ? random.value(in: 0.03...0.06) : 0.01,
                              peak: random.value(in: 0.9...1.0, places: 2), hold: random.value(in: 0.03...0.2),
                              lift: random.chance(0.5) ? .soft : .abrupt, disturbance: disturbance)
        case 4:
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &random)
            let length = random.value(in: 40...200, places: 0)
            return .drag(device, from: point, by: ChaosPoint(x: (length * cos(angle)).rounded(), y: (length * sin(angle)).rounded()),
                         steps: Int.random(in: 4...10, using: &random))
        case 5:
            return .hold(device, at: point, force: random.value(in: 0.15...0.3, places: 2), duration: random.value(in: 0.4...0.8))
        case 6:
            return .knob(device, degrees: random.value(in: 90...200, places: 0))
        case 7:
            return .twoFingers(at: point)
        case 8:
            return .penAndTouch(at: point)
        case 9:
            return .burst(device, at: point, count: Int.random(in: 4...10, using: &random))
        case 10:
            return .replug(device)
        default:
            return .replugMidPress(device, at: point, deep: random.chance(0.5))
        }
    }

    private static func drawMouseStep(_ kind: Int, _ random: inout ChaosRandom, at point: ChaosPoint) -> ChaosStep {
        switch kind {
        case 0:
            return .mouseClicks(count: Int.random(in: 1...3, using: &random))
        case 1:
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &random)
            let length = random.value(in: 40...200, places: 0)
            return .mouseDrag(by: ChaosPoint(x: (length * cos(angle)).rounded(), y: (length * sin(angle)).rounded()),
                              steps: Int.random(in: 4...10, using: &random))
        case 2:
            return .mouseDuringPenPress(at: point, deep: random.chance(0.5))
        default:
            return .mouseButtonDuringPenPress(at: point, button: random.chance(0.5) ? 3 : 4, deep: random.chance(0.5))
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
