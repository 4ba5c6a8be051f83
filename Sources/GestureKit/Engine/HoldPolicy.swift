/// When a press held back from the application, still and undecided, is handed over: the
/// decision follows the force, not only a clock.
///
/// People press deliberately, not in jabs: in the iPhone recording the six hard presses reach
/// 0.7 of the range after 0.87 to 6.2 s, climbing at 0.1 to 0.8 of the range a second. A
/// fixed timeout hands all but the first to the application before they get there. So, while
/// a pressure gesture (deep press, squeeze) may still begin on a still contact:
///
/// - the press stays held while its force is **climbing**: the least-squares slope over the
///   last `window` seconds is at least `minimumRise` per second *and* stands out from the
///   samples' scatter (slope over its standard error at least `significance`), so sensor
///   noise on a flat press does not read as a climb, while a clean ramp always does;
/// - it stays held while the force **holds above what an ordinary touch reaches** (the
///   binding's `ordinary`, by default half its threshold), averaged over the window;
/// - once neither holds (the force has levelled off, or eases back, at an ordinary level),
///   it goes to the application at once;
/// - the hold limit ends any hold.
///
/// A hand with a tremor shakes the force 4 to 8 times a second, and over one window the wobble
/// swamps a slow climb: the slope swings either way, and a climb from a light touch reads as
/// levelled off within a cycle. So where the force **wobbles** (it swung down and up again, or
/// up and down, by `wobble` over the last `tremorSpan`), a press below the ordinary level stays
/// held while its **peaks still rise**: the highest force of the last half of that span stands
/// `peakRise` above the highest before it. Half the span holds a whole cycle at 4 Hz, so a
/// trembling press held level goes to the application within half a second.
///
/// The window is judged once the contact has been down for `window` seconds, on each sample,
/// and, when samples stop, `quiet` seconds after the last one: drivers post nothing while
/// nothing changes, so the force has been steady since. A contact that has sent no sample since
/// touch-down has told nothing about its force: the decision timeout applies to it.
public enum HoldPolicy {
    /// Seconds of samples the trend is judged over: long enough for 7 samples of a 35 Hz
    /// sensor, short enough that a flat press goes to the application within 0.3 s.
    public static let window = 0.2
    /// Seconds without a sample after which the force counts as steady since the last one. A
    /// real sensor's jitter sends samples all along, so this is for a perfectly still press;
    /// it is longer than the window because a busy machine can hold samples back for a few
    /// hundred milliseconds (a slow press read as resting would become a left click), and as
    /// long as the default decision timeout: a press that goes quiet is handed over half a
    /// second after its last sample, as one that never spoke is half a second after touch-down.
    public static let quiet = 0.5
    /// Force (0...1) per second below which a press is not climbing: a quarter of the slowest
    /// climb in the iPhone recording (0.1 of the range per second), whose slow stretches rise
    /// at 0.045 a second over a window. It is the significance test, not this floor, that
    /// tells noise on a flat press from a climb; the floor only has to stay under the slowest
    /// real climb as measured from samples that come late: at 0.05, presses 3 and 5 of the
    /// recording were handed over in 138 of 200 runs with every sample up to 50 ms late, at
    /// 0.025 in none (and in 3 of 200 with 80 ms).
    public static let minimumRise = 0.025
    /// How many standard errors the slope must stand above zero to count as a climb: with
    /// ±2 % noise on a flat press a slope this clear comes by chance in about 1 window of 20.
    public static let significance = 2.0

    /// Seconds of samples a tremor is looked for in, and whose halves' peaks are compared: two
    /// cycles of the slowest tremor (4 Hz), and the longest a trembling light press is held.
    public static let tremorSpan = 0.5
    /// The swing, down and up again, that makes a wobble: a tremor of ±0.03 of the range swings
    /// 0.06, still 0.036 on a climb of 0.19 a second; it is more than the ±2 % noise of a steady
    /// press swings at the rates most sensors report.
    public static let wobble = 0.03
    /// Seconds the force is averaged over before its swings are counted: a sensor's noise
    /// differs from one sample to the next and averages away; a tremor's wobble, 125 ms a
    /// cycle at 8 Hz, keeps three quarters of its swing.
    public static let tremorSmoothing = 0.05
    /// How far a trembling press's last peaks must stand above those before to count as
    /// climbing: a climb of 0.1 of the range a second (the recording's slowest) rises 0.025 in
    /// half a span, and noise on a steady press rarely lifts one peak this far above another.
    public static let peakRise = 0.02

    /// The default `ordinary` of a pressure gesture: half its threshold, to hundredths, and
    /// below it (at a threshold of 0.01 half of it rounds up to the threshold itself, which the
    /// config refuses when written).
    public static func defaultOrdinary(threshold: Double) -> Double {
        Swift.max(0, Swift.min((threshold * 50).rounded() / 100, ((threshold - 0.01) * 100).rounded() / 100))
    }
}

/// The recent course of one held contact's force: the samples of the last `HoldPolicy.window`
/// seconds and their running sums, so judging costs the same at 35 Hz and at 1000 Hz.
struct ForceTrend: Sendable {
    enum Judgement: Sendable, Hashable {
        /// Down for less than a window, or no sample since touch-down: nothing to judge yet.
        case unknown
        /// The force is rising clearly.
        case climbing
        /// Not climbing; the mean force over the window.
        case level(Double)
    }

    /// Touch-down: times are kept relative to it, so the sums stay precise.
    let start: Double
    /// When the hold ends whatever the force: touch-down plus the hold limit of the bindings
    /// the contact began with.
    let end: Double
    /// When the engine's hold timer looks at the contact next; nil when it is not set.
    var nextCheck: Double?
    private(set) var lastTime: Double
    private(set) var lastForce: Double
    /// Whether any sample came after touch-down's.
    private(set) var hasEvidence = false
    /// The time of the last sample while it is one that ended a silence (`add`): judged only
    /// `bunchWait` after it.
    private var silenceEndedAt: Double?

    private var samples: [(time: Double, force: Double)] = []
    private var head = 0
    /// The first sample `tremblingUpward` may look at: the newest at or before the start of its span.
    private var spanHead = 0
    private var sums = Sums()

    private struct Sums: Sendable {
        var count = 0.0, time = 0.0, force = 0.0, timeSquared = 0.0, timeForce = 0.0, forceSquared = 0.0

        mutating func add(_ time: Double, _ force: Double, sign: Double = 1) {
            count += sign
            self.time += sign * time
            self.force += sign * force
            timeSquared += sign * time * time
            timeForce += sign * time * force
            forceSquared += sign * force * force
        }
    }

    init(start: Double, force: Double, limit: Double) {
        self.start = start
        end = start + limit
        lastTime = start
        lastForce = force
        append(time: start, force: force)
    }

    /// A sample at `time` (never earlier than the last).
    ///
    /// On a busy machine samples come late and together: X stamps what its input thread reads
    /// after standing still over a millisecond or two, and a sample the bridge reads after one
    /// of its timers fired is dated at the timer. The first of such a bunch ends a silence and
    /// carries the force from before the stall: judged at once, with the samples before the
    /// silence, a slow climb would read as a press that stood still, handed to the application
    /// mid-climb. So the samples within `bunchWait` of one that ends a silence are one sample,
    /// at the last one's time with the hardest force among them, judged once `bunchWait` has
    /// passed, by when the rest of the bunch has come and brought the force to the stall's
    /// end; a device that is only slow (a sample when a value changes) is judged as ever,
    /// `bunchWait` later. And the window keeps the sample before its start (`evict`), so after
    /// a silence it still spans its whole length.
    mutating func add(time: Double, force: Double) {
        hasEvidence = true
        let inBunch = silenceEndedAt.map { time < $0 + Self.bunchWait - Self.tolerance } ?? false
        if samples.count > head, let last = samples.last, inBunch {
            // The rest of a bunch (X's input thread stamps one as it reads it, over a few
            // milliseconds): one sample at its last time, with the hardest force it brought: a
            // climb's is its last, made as the stall ended; a driver flickering between two
            // coarse steps (its first sample of a step also ends a silence) has reached the
            // higher. (Runs of one stamp outside a bunch, a fast pen's in whole milliseconds,
            // each carry a fresh force, and all count.)
            replaceLast(time: time, force: Swift.max(force, last.force))
        } else {
            silenceEndedAt = time - lastTime > Self.silence ? time : nil
            append(time: time, force: force)
        }
        lastTime = Swift.max(lastTime, time)
        lastForce = force
    }

    /// A gap between samples past which the next may be the first of a bunch read late: half
    /// the window, longer than a 20 Hz sensor's spacing and than the lateness a busy machine's
    /// jitter brings (up to 50 ms: `HoldPolicy.minimumRise`), short enough that a bunch's
    /// stale first sample cannot pass for a still press.
    static let silence = 0.1
    /// How long a sample after a silence waits for the rest of its bunch: X stamps it within a
    /// few milliseconds, and the bridge reads it in the same read of the X connection.
    static let bunchWait = 0.01

    /// When judging without a new sample could give another answer: once the force has been
    /// quiet long enough to count as steady (`HoldPolicy.quiet`).
    var recheckTime: Double { Swift.max(lastTime, start) + HoldPolicy.quiet }

    /// The trend at `time`: at a sample, over the window's samples (at least three); after
    /// `HoldPolicy.quiet` without one, steady at the last sample's force, as X reports an
    /// unchanging force; in between, not known yet.
    mutating func judge(at time: Double) -> Judgement {
        guard hasEvidence, time - start >= HoldPolicy.window - Self.tolerance else { return .unknown }
        if time >= recheckTime - Self.tolerance { return .level(lastForce) }
        if let silenceEndedAt {
            // Its bunch may still come; once the wait is over, judged as at that sample.
            guard time >= silenceEndedAt + Self.bunchWait - Self.tolerance else { return .unknown }
        } else {
            guard time <= lastTime else { return .unknown }
        }
        evict(before: lastTime - start - HoldPolicy.window)
        let window = sums
        guard window.count >= 2 else { return .level(lastForce) }
        let meanTime = window.time / window.count
        let meanForce = window.force / window.count
        let timeSpread = window.timeSquared - window.time * meanTime
        let forceSpread = window.forceSquared - window.force * meanForce
        let covariance = window.timeForce - window.time * meanForce
        guard timeSpread > Self.tolerance * Self.tolerance else { return .level(meanForce) }
        let slope = covariance / timeSpread
        guard slope >= HoldPolicy.minimumRise else { return .level(meanForce) }
        // A slope that stands out from the scatter around the fitted line: noise on a flat
        // press rarely does, a clean ramp (no scatter at all) always does.
        let residual = Swift.max(0, forceSpread - slope * covariance)
        guard window.count > 2, residual > 0 else { return .climbing }
        let standardError = (residual / (window.count - 2) / timeSpread).squareRoot()
        return slope >= HoldPolicy.significance * standardError ? .climbing : .level(meanForce)
    }

    /// What the hold does at a judgement.
    enum Step: Sendable, Hashable {
        /// Keep holding; set the hold timer to `recheck` (nil: the timer already set comes soon enough).
        case hold(recheck: Double?)
        /// Hand the contact to the application, for this reason.
        case handOver(ReleaseReason)
    }

    /// The hold's step at `time`, on a sample or on the hold timer, for pressure gestures whose
    /// lowest `ordinary` is `ordinary`.
    mutating func follow(at time: Double, ordinary: Double) -> Step {
        if time >= end { return .handOver(.limit) }
        if case .level(let force) = judge(at: time), force <= ordinary, !tremblingUpward(at: time) {
            return .handOver(.levelledOff)
        }
        // The look is only ever brought forward: a timer still to come looks then at the
        // samples that came meanwhile, and sets the next one; moving it on every sample would
        // cost a timer-queue update per sample.
        var recheck = Swift.min(recheckTime > time ? recheckTime : end, end)
        if let silenceEndedAt, silenceEndedAt + Self.bunchWait > time {
            recheck = Swift.min(recheck, silenceEndedAt + Self.bunchWait)
        }
        guard nextCheck.map({ recheck < $0 }) ?? true else { return .hold(recheck: nil) }
        nextCheck = recheck
        return .hold(recheck: recheck)
    }

    /// Whether, judged at a sample, the force wobbles like a tremor over the last
    /// `HoldPolicy.tremorSpan` while its peaks still climb (`HoldPolicy`). After a quiet spell
    /// nothing trembles: the force has held still since the last sample.
    func tremblingUpward(at time: Double) -> Bool {
        guard time <= lastTime + Self.tolerance else { return false }
        let last = lastTime - start
        let spanStart = last - HoldPolicy.tremorSpan
        let half = last - HoldPolicy.tremorSpan / 2
        // The newest sample at or before the span's start stands for the force there.
        var first = samples.count - 1
        while first > 0, samples[first].time > spanStart + Self.tolerance { first -= 1 }
        var earlierPeak = -Double.infinity, laterPeak = -Double.infinity
        var swing = Swing()
        // The swings are read from the force averaged over `HoldPolicy.tremorSmoothing`: a
        // sensor's noise jumps from one sample to the next and averages away, a tremor's
        // wobble is smooth over that long and stays.
        var oldest = first, sum = 0.0
        for index in first..<samples.count {
            let sample = samples[index]
            if sample.time > half + Self.tolerance {
                laterPeak = Swift.max(laterPeak, sample.force)
            } else {
                earlierPeak = Swift.max(earlierPeak, sample.force)
            }
            sum += sample.force
            while index - oldest >= Self.fewestSmoothed, samples[oldest].time <= sample.time - HoldPolicy.tremorSmoothing {
                sum -= samples[oldest].force
                oldest += 1
            }
            swing.add(sum / Double(index - oldest + 1))
        }
        return swing.reversals >= 1 && laterPeak >= earlierPeak + HoldPolicy.peakRise
    }

    /// Samples the force is averaged over at least before its swings are counted: a 35 Hz
    /// sensor's 50 ms holds one or two, too few to average its noise away.
    private static let fewestSmoothed = 3

    /// Counts the force's turns, each a move of at least `HoldPolicy.wobble` back from the
    /// furthest it went the other way.
    private struct Swing {
        enum Direction { case unknown, up, down }
        var direction = Direction.unknown
        var low = Double.infinity, high = -Double.infinity
        var reversals = 0

        mutating func add(_ force: Double) {
            low = Swift.min(low, force)
            high = Swift.max(high, force)
            switch direction {
            case .unknown:
                if force >= low + HoldPolicy.wobble { direction = .up; high = force }
                else if force <= high - HoldPolicy.wobble { direction = .down; low = force }
            case .up:
                if force <= high - HoldPolicy.wobble { direction = .down; low = force; reversals += 1 }
            case .down:
                if force >= low + HoldPolicy.wobble { direction = .up; high = force; reversals += 1 }
            }
        }
    }

    /// Clock arithmetic (`last + window`) must not push a sample a hair out of its window.
    private static let tolerance = 1e-9

    private mutating func append(time: Double, force: Double) {
        samples.append((time - start, force))
        sums.add(time - start, force)
    }

    private mutating func replaceLast(time: Double, force: Double) {
        guard let last = samples.popLast() else { return }
        sums.add(last.time, last.force, sign: -1)
        append(time: time, force: force)
    }

    /// Samples kept however old: a trend needs three points, and a slow device (10 Hz) or
    /// samples held back by a busy machine can leave fewer in a window.
    private static let fewestSamples = 3

    private mutating func evict(before relative: Double) {
        // The newest sample at or before the window's start stays: the window spans it whole
        // even after a silence (a stall's bunch, then a few samples, would otherwise judge a
        // slow climb on the last few milliseconds).
        while samples.count - head > Self.fewestSamples, samples[head + 1].time <= relative + Self.tolerance {
            sums.add(samples[head].time, samples[head].force, sign: -1)
            head += 1
        }
        // Compact now and then, and sum afresh: subtractions leave rounding behind. What a
        // tremor is looked for in stays (`tremblingUpward`), with the sample before it.
        let spanStart = relative + HoldPolicy.window - HoldPolicy.tremorSpan
        while spanHead < head, samples[spanHead + 1].time <= spanStart + Self.tolerance { spanHead += 1 }
        if spanHead >= 256 && spanHead * 2 >= samples.count {
            samples.removeFirst(spanHead)
            head -= spanHead
            spanHead = 0
            sums = Sums()
            for sample in samples[head...] { sums.add(sample.time, sample.force) }
        }
    }
}
