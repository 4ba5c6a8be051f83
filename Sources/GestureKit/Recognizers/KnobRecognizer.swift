import Glibc

/// A one-finger knob: circling around a center turns it.
///
/// The contact must go down inside the ring between `innerRadius` and `outerRadius`, or the
/// knob fails. With an `activation` angle the knob begins only once the contact has turned
/// that far (net, in one direction) inside the ring and its path has curved with the turn
/// (`Curl`), so a tap or a straight drag across the ring is not taken for a knob: a drag
/// that sweeps twice the angle without curving, or leaves well past the outer radius first,
/// fails. The rotation turned so far comes with `began`. While
/// turning, samples that stray inside the inner radius (where the angle is unstable) or
/// beyond the outer radius turn nothing, and the next sample back in the ring starts
/// afresh, so leaving and re-entering never jumps the knob.
public struct KnobRecognizer: GestureRecognizer {
    public struct Configuration: Sendable, Hashable {
        public var center: Point
        public var innerRadius: Double
        public var outerRadius: Double
        /// Radians to turn before the knob begins.
        public var activation: Double

        public init(center: Point, innerRadius: Double = 0, outerRadius: Double = .infinity, activation: Double = 0) {
            self.center = center
            self.innerRadius = innerRadius
            self.outerRadius = outerRadius
            self.activation = activation
        }

        /// How far past the outer radius an arming contact may stray and still be turning:
        /// a quarter of the ring's width, and at least 8 pixels.
        var straySlack: Double { max(8, (outerRadius - innerRadius) / 4) }

        public func contains(_ point: Point) -> Bool {
            let distance = point.distance(to: center)
            return distance >= innerRadius && distance <= outerRadius
        }

        /// Radians in [0, 2π), 0 at 3 o'clock, clockwise on screen (root y grows down).
        public func angle(of point: Point) -> Double {
            let raw = atan2(point.y - center.y, point.x - center.x)
            return raw < 0 ? raw + 2 * .pi : raw
        }
    }

    /// How far a contact's heading has turned while the knob arms. A contact circling the
    /// center turns its heading with the angle it sweeps; a straight drag across the ring
    /// sweeps an angle too (a chord near the outer edge sweeps 30° within a few pixels of an
    /// arc) but keeps its heading. The path is read as chords laid end to end, each at least
    /// `segment` pixels (a third of the arc the activation angle makes at the radius the contact
    /// went down at, so a pixel's jitter moves a chord's heading by a few degrees), and the
    /// turns from each chord to the next are summed: any activation up to a whole circle, and
    /// jitter that cancels out. Chords that run mostly toward or away from the center before
    /// the first that runs around it are a finger settling, not turning: they are not read.
    struct Curl: Sendable {
        let segment: Double
        let center: Point
        /// Where the chord being laid began; nil while the contact is out of the ring.
        private var anchor: Point?
        /// The heading of the last chord laid.
        private var heading: Double?
        /// Radians the heading has turned from the first chord to the last, unwrapped.
        private(set) var turned = 0.0

        init(origin: Point, center: Point, activation: Double) {
            self.center = center
            anchor = origin
            segment = max(4, origin.distance(to: center) * activation / 3)
        }

        mutating func add(_ point: Point) {
            guard let start = anchor else {
                anchor = point
                return
            }
            guard point.distance(to: start) >= segment else { return }
            let chord = atan2(point.y - start.y, point.x - start.x)
            anchor = point
            if let heading {
                turned += KnobRecognizer.wrap(chord - heading)
            } else if Self.runsRadially(from: start, to: point, center: center) {
                return
            }
            heading = chord
        }

        /// The contact left the ring: the path resumes where it comes back.
        mutating func interrupt() {
            anchor = nil
        }

        /// Whether the path curves with a turn of `total` radians: its heading has turned by a
        /// third of it, the same way (an arc's turns by about two thirds of the angle by the
        /// time it has swept it, the last chord trailing).
        func follows(_ total: Double) -> Bool {
            turned * total > 0 && abs(turned) >= abs(total) / 3
        }

        /// Whether the chord from `start` to `end` runs more toward or away from `center` than
        /// around it.
        private static func runsRadially(from start: Point, to end: Point, center: Point) -> Bool {
            let middle = Point(x: (start.x + end.x) / 2, y: (start.y + end.y) / 2)
            let (rx, ry) = (middle.x - center.x, middle.y - center.y)
            let (dx, dy) = (end.x - start.x, end.y - start.y)
            return abs(dx * rx + dy * ry) > abs(dx * ry - dy * rx)
        }
    }

    /// A contact watched from its down in the ring.
    private enum Turn: Sendable {
        /// Not yet turned `activation` radians with a path that curves (`Curl`); `lastAngle`
        /// as in `turning`.
        case arming(lastAngle: Double?, turned: Double, curl: Curl)
        /// Turning; `lastAngle` is nil while the contact is outside the ring.
        case turning(lastAngle: Double?)
    }

    public let configuration: Configuration
    private var phase = RecognizerPhase<Turn>.idle

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Wraps an angle difference into (-π, π].
    public static func wrap(_ delta: Double) -> Double {
        var value = delta.truncatingRemainder(dividingBy: 2 * .pi)
        if value <= -.pi { value += 2 * .pi }
        if value > .pi { value -= 2 * .pi }
        return value
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerStep {
        switch phase.route(input, of: .knob) {
        case .begin(let sample):
            guard configuration.contains(sample.position) else {
                return phase.finish(GestureReport(.failed, at: sample))
            }
            let angle = configuration.angle(of: sample.position)
            guard configuration.activation > 0 else {
                phase = .watching(.turning(lastAngle: angle))
                return .report(report(.began, sample, angle: angle, rotation: 0))
            }
            let curl = Curl(origin: sample.position, center: configuration.center, activation: configuration.activation)
            phase = .watching(.arming(lastAngle: angle, turned: 0, curl: curl))
            return .nothing
        case .move(.arming(let lastAngle, let turned, var curl), let sample):
            // A circle along the outer edge strays out a few pixels, and those samples turn the
            // knob as ones on the ring do (found in review: a circle wobbling across the default
            // ring's edge, every other sample 4 px past it, never began).
            let distance = sample.position.distance(to: configuration.center)
            let strayed = distance > configuration.outerRadius && distance <= configuration.outerRadius + configuration.straySlack
            guard configuration.contains(sample.position) || strayed else {
                // Well out past the ring before the knob began: a drag away from it.
                if distance > configuration.outerRadius + configuration.straySlack {
                    return phase.finish(GestureReport(.failed, at: sample))
                }
                // Through the inner disc, where a pixel swings the angle: looked at again
                // once back on the ring.
                curl.interrupt()
                phase = .watching(.arming(lastAngle: nil, turned: turned, curl: curl))
                return .nothing
            }
            curl.add(sample.position)
            let angle = configuration.angle(of: sample.position)
            let total = turned + (lastAngle.map { Self.wrap(angle - $0) } ?? 0)
            if abs(total) >= configuration.activation, curl.follows(total) {
                phase = .watching(.turning(lastAngle: angle))
                return .report(report(.began, sample, angle: angle, rotation: total))
            }
            if abs(total) >= 2 * configuration.activation {
                // Swept twice the angle without curving with it: a drag across the ring.
                return phase.finish(GestureReport(.failed, at: sample))
            }
            phase = .watching(.arming(lastAngle: angle, turned: total, curl: curl))
            return .nothing
        case .up(.arming, let sample), .cancel(.arming, let sample):
            return phase.finish(GestureReport(.failed, at: sample))
        case .move(.turning(let lastAngle), let sample):
            // A circle along the outer edge strays out a few pixels, as it did while the knob
            // waited to begin: still turning. Found in review: a full turn along the edge lost a
            // third of its steps, with no ring drawn to show where the edge is.
            let distance = sample.position.distance(to: configuration.center)
            let strayed = distance > configuration.outerRadius && distance <= configuration.outerRadius + configuration.straySlack
            guard configuration.contains(sample.position) || strayed else {
                phase = .watching(.turning(lastAngle: nil))
                return .nothing
            }
            let angle = configuration.angle(of: sample.position)
            phase = .watching(.turning(lastAngle: angle))
            guard let lastAngle else { return .nothing }
            let rotation = Self.wrap(angle - lastAngle)
            guard rotation != 0 else { return .nothing }
            return .report(report(.changed, sample, angle: angle, rotation: rotation))
        case .up(.turning, let sample):
            return phase.finish(report(.ended, sample, angle: configuration.angle(of: sample.position), rotation: 0))
        case .cancel(.turning, let sample):
            return phase.finish(report(.cancelled, sample, angle: configuration.angle(of: sample.position), rotation: 0))
        case .settled(let step):
            return step
        }
    }

    private func report(_ state: GestureState, _ sample: ContactSample, angle: Double, rotation: Double) -> GestureReport {
        GestureReport(state: state, time: sample.time, position: sample.position, force: sample.force,
                      knob: KnobReading(angle: angle, rotation: rotation,
                                        distance: sample.position.distance(to: configuration.center)))
    }
}

extension KnobSettings {
    /// A knob's keys in a config binding. `step`, `clockwise` and `counterclockwise` make a
    /// binding's `StepActions`: one action per `step` degrees turned.
    public enum Keys {
        /// `[x, y]` in root pixels, a negative number counting from the right or bottom edge,
        /// or `{monitor: NAME, at: [x, y]}` counting from that monitor's edges.
        public static let center = PointKey("center", -100_000...100_000)
        /// Near the center the angle swings with every pixel: a finger passing a few pixels
        /// from it would turn the knob by half a turn at once. Left out, the ring's inner
        /// quarter turns nothing.
        public static let innerRadius = DependentNumberKey("inner-radius", .pixels, 0...100_000, follows: "outer-radius",
                                                           by: .quarter)
        public static let outerRadius = NumberKey("outer-radius", .pixels, 1...100_000, standard: 100)
        public static let activation = NumberKey("activation", .degrees, 0...360, standard: 0)
        public static let step = NumberKey("step", .degrees, 0.1...360, standard: 15)
        public static let clockwise = ActionsKey("clockwise")
        public static let counterclockwise = ActionsKey("counterclockwise")
        public static let steps = StepKeys(step: step, increase: clockwise, decrease: counterclockwise)
    }

    public static let schema = GestureSchema(.knob, [Keys.center.entry, Keys.innerRadius.entry, Keys.outerRadius.entry,
                                                     Keys.activation.entry, Keys.step.entry, Keys.clockwise.entry,
                                                     Keys.counterclockwise.entry])
}
