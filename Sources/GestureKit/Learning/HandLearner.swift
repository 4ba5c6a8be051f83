/// The three levels a deep press works with, as fractions (0...1) of the device's pressure range;
/// in a learned change's `--json` line `{"threshold","release","ordinary"}`.
public struct PressLevels: Sendable, Hashable, Codable {
    public var threshold: Double
    public var release: Double
    public var ordinary: Double

    public init(threshold: Double, release: Double, ordinary: Double) {
        self.threshold = threshold
        self.release = release
        self.ordinary = ordinary
    }

    /// Today's built-in deep press: where learning starts.
    public static let start = PressLevels(threshold: 0.7, release: 0.5, ordinary: 0.35)
}

/// What a finished contact tells about the hand that made it.
public enum PressEvidence: Sendable, Hashable {
    /// Handed to the application (a tap, a stroke, a press cut short by the decision timeout):
    /// how hard this hand presses when it means nothing by it.
    case ordinary(peak: Double)
    /// Handed to the application as a still press that levelled off (a light press, a firm hand
    /// resting; or a deep press given up on below the ordinary level, a lighter hand's on a
    /// device a firmer hand taught): an ordinary contact, held still. The learner tells whether
    /// it counts toward the ordinary level (`LearningRule.stillApart`).
    case heldStill(peak: Double)
    /// Claimed by a learning deep press, or a still press held above the ordinary level until
    /// the hold limit (it meant to press and fell short): how hard this hand presses on purpose.
    case deliberate(peak: Double)
    /// A still press held above the ordinary level for longer than a tap lasts and lifted short
    /// of the threshold: a press meant, that fell short and was given up (a light hand's deep
    /// press at a threshold out of its reach), if it stands out from this hand's ordinary
    /// contacts; else one of them (a firm hand resting on the screen). The learner tells which.
    case fellShort(peak: Double)
    /// Claimed by a learning deep press that reached the threshold within a tap's time of
    /// touch-down and lifted as soon as a tap does (`LearningRule.quick`, `attempt`): a press
    /// meant, made quickly, or a heavy hand's tap that reached the threshold (and right-clicked).
    /// Against a dozen ordinary contacts the learner tells which, as for `fellShort`; a hand
    /// whose taps all reach the threshold has none, and its quick presses, once two dozen
    /// (`LearningRule.quickTaps`), are its ordinary contacts, held still.
    case quick(peak: Double)
}

/// The learning rule, with its numbers: see docs/config.md, *The bridge learns your hand*.
///
/// People press at very different absolute forces but judge relative force alike (Pedersen and
/// Hornbæk, CHI 2014), and today's defaults put the threshold at twice what an ordinary
/// touch reaches (0.7 and 0.35). So the rule aims the threshold at twice the ordinary level
/// this hand shows, never closer than `margin` above it, and no higher than most of its
/// deliberate presses reach; and it leaves today's levels alone while they fit well enough.
public enum LearningRule {
    /// Ordinary contacts remembered (the newest): about a day's light use at a desk.
    public static let ordinaryWindow = 50
    /// Deliberate presses remembered (the newest).
    public static let deliberateWindow = 20
    /// Ordinary contacts seen before anything moves: never from one contact, nor a handful.
    public static let minimumOrdinary = 12
    /// Deliberate presses needed before they pull the threshold down.
    public static let minimumDeliberate = 3
    /// A still press lifted undecided that lasted this long from touch-down, its peak above the
    /// ordinary level, may have been meant, and fallen short: a tap (133 ± 83 ms) is over sooner.
    public static let attempt = 0.3
    /// A deep press that reaches its threshold this soon after touch-down, and lifts within
    /// `attempt`, may be a tap: a tap's force peaks half way through its 133 ± 83 ms, while the
    /// presses people mean climb for longer (the iPhone recording's reach 0.7 after 0.87 s).
    public static let quick = 0.12
    /// Quick presses are the hand's ordinary contacts once this many came before a dozen
    /// ordinary contacts did: more than a person trying the deep press out makes in a row.
    public static let quickTaps = 24
    /// A press handed over as levelled off this soon before its lift was eased off to lift:
    /// the same as one lifted still.
    public static let easedOff = 0.1
    /// An ordinary contact that touches down this soon after the last one lifted joins it: a
    /// run of quick taps (an on-screen keyboard's typing, a double tap) teaches as one contact,
    /// the hardest of them. Taps that quick peak lighter than the hand presses otherwise, and a
    /// paragraph of them would make up the whole memory: a firmer hand's threshold came down
    /// among its other contacts after one.
    public static let run = 0.3
    /// Such a press was meant when its peak is this far above the ordinary level the hand's
    /// ordinary contacts show (half the margin): otherwise it is one of them.
    public static let standOut = 0.1
    /// Ordinary contacts held still (levelled off, or lifted short without standing out) are
    /// left out of the ordinary level while they peak this far (the margin) or more above the
    /// level of the hand's other ordinary contacts (its taps and strokes), once 12 of those are
    /// remembered: else the deep presses a lighter hand gives up on a device a firmer hand
    /// taught, counted ordinary against the firmer hand's level, would make that level
    /// themselves, and keep its threshold out of their reach. A hand that rests harder than it
    /// taps by less keeps every contact in its level.
    public static let stillApart = 0.2
    /// The ordinary level: this quantile of the remembered ordinary peaks, so one or two
    /// unusually hard taps do not move it.
    public static let ordinaryQuantile = 0.9
    /// Threshold ÷ ordinary level, as in today's defaults (0.7 ÷ 0.35).
    public static let ratio = 2.0
    /// The threshold stays at least this far above the ordinary level, unless the hand's
    /// deliberate presses need it lower and stand apart from its ordinary contacts
    /// (`apartQuantile`).
    public static let margin = 0.2
    /// The margin yields only to deliberate presses that are one group: the hardest remembered
    /// within this of their `apartQuantile`. A typical hand resting its pen at 0.42-0.47 beside
    /// its deep presses at 0.8-0.95 had the rests, counted as presses that fell short, make the
    /// margin yield, and every rest right-clicked.
    public static let oneGroup = 0.2
    /// The deliberate presses stand apart from the ordinary contacts when this quantile of them
    /// peaks `standOut` or more above the hardest ordinary contact counted: then the threshold
    /// may come down to them (`deliberateFraction`), closer than `margin` to the ordinary
    /// level, but never within `standOut` of that contact.
    public static let apartQuantile = 0.1
    /// The threshold stays at or below this fraction of the deliberate presses' lower quartile
    /// (`deliberateQuantile`), so three in four reach it with a tenth to spare, and a press a
    /// little lighter than those still counts (unless that would break the margin). At the
    /// median, a firm hand whose deep presses peak 0.8-0.95 had it at 0.81 and lost some.
    public static let deliberateFraction = 0.9
    public static let deliberateQuantile = 0.25
    /// The levels move toward a lower aim, however near, once this quantile of the deliberate
    /// presses falls short of the threshold (one in ten). At the median (half of them failing)
    /// a medium hand's threshold stopped at 0.47 for a hundred contacts, its presses at
    /// 0.45-0.47 failing, the aim (0.42) nearer than the dead band.
    public static let shortQuantile = 0.1
    /// The threshold never leaves these bounds.
    public static let bounds: ClosedRange<Double> = 0.25...0.9
    /// The levels move only once the threshold they aim at is this far from the current one:
    /// a hand today's levels fit (ordinary 0.15-0.35) keeps exactly today's behaviour. Wider
    /// downward: a lower threshold is the costly mistake (ordinary taps that right-click), and
    /// a dozen contacts' top quantile falls short of the hand's true top.
    public static let deadBand = (down: 0.15, up: 0.1)
    /// The most the threshold moves per contact learned from: it takes about 18 contacts to go
    /// from 0.7 to 0.35.
    public static let step = 0.02
    /// Once moving, it stops when this close to its aim.
    public static let arrival = 0.005
    /// The ordinary level, once learned, sits this far above the hardest ordinary contact
    /// remembered, between half the threshold and `ordinaryGap` below it.
    public static let ordinaryHeadroom = 0.03
    public static let ordinaryGap = 0.1
    /// Release ÷ threshold, as in today's defaults (0.5 ÷ 0.7).
    public static let releaseRatio = 5.0 / 7.0
}

/// What one device's hand has shown, and the deep-press levels learned from it. A value:
/// the engine keeps one per device, and a test runs it on contacts of its choosing.
public struct HandLearner: Sendable, Hashable {
    /// Peaks of the newest ordinary contacts, oldest first.
    public private(set) var ordinaryPeaks: [Double] = []
    /// Which of `ordinaryPeaks` (by position, in order) were held still: handed over as
    /// levelled off (`heldStill`), or lifted short without standing out (`fellShort`).
    public var heldStill: [Int] { ordinaryHeldStill.indices.filter { ordinaryHeldStill[$0] } }
    /// Beside `ordinaryPeaks`, one each: whether it was held still.
    private var ordinaryHeldStill: [Bool] = []
    /// Peaks of the newest deliberate presses, oldest first.
    public private(set) var deliberatePeaks: [Double] = []
    /// Every contact learned from, ever (the windows keep only the newest).
    public private(set) var ordinaryContacts = 0
    public private(set) var deliberatePresses = 0
    /// The learned levels; nil while today's levels stand.
    public private(set) var levels: PressLevels?
    /// Whether the threshold is on its way to a new aim (it moves a step per contact).
    public private(set) var moving = false
    /// `calibrate --write` set this device's levels: learning neither moves nor applies to
    /// it until it is reset.
    public var calibrated = false
    /// Peaks of presses lifted short (`fellShort`) while too few ordinary contacts were
    /// remembered to tell whether they stand out from them, oldest first: judged once
    /// `LearningRule.minimumOrdinary` are, and counted as nothing until then. Not kept in the
    /// state file: a bridge stopped before then forgets these few.
    public private(set) var unjudgedPeaks: [Double] = []
    /// Peaks of quick presses (`PressEvidence.quick`) while too few ordinary contacts were
    /// remembered to tell them apart, oldest first, the newest `LearningRule.quickTaps`: judged
    /// as `unjudgedPeaks` are, or, should `LearningRule.quickTaps` of them come with fewer than
    /// a dozen ordinary contacts among them (each tap of a run counted), all taken for this
    /// hand's ordinary contacts (its taps reach the threshold). Kept in the state file: found in
    /// review of a week of learning, a heavy hand whose bridge saw fewer than two dozen taps a
    /// run (a short session a day) started counting again at each, and every tap right-clicked
    /// for good.
    public private(set) var unjudgedQuick: [Double] = []
    /// Beside `unjudgedQuick`, one each: how many ordinary contacts the device had had before it.
    public private(set) var unjudgedQuickAfter: [Int] = []
    /// Contacts recorded since the levels last had a chance to move.
    private var unsettled = 0
    /// When the last ordinary contact lifted, for the next to join it (`LearningRule.run`); nil
    /// once anything else came between. Not kept in the state file.
    private var ordinaryLift: Double?

    public init() {}

    /// Rebuilds a learner from its saved state; nil when the state is not one the rule could
    /// have reached (a damaged file). `heldStill`: which ordinary peaks, by position in increasing
    /// order, were held still (none in a state kept before they were told apart).
    /// `quick`: the quick presses still to be judged (`unjudgedQuick`), each with the ordinary
    /// contacts there had been before it (`unjudgedQuickAfter`).
    public init?(ordinaryPeaks: [Double], heldStill: [Int] = [], deliberatePeaks: [Double], ordinaryContacts: Int,
                 deliberatePresses: Int, levels: PressLevels?, moving: Bool, calibrated: Bool,
                 quick: [(peak: Double, after: Int)] = []) {
        let valid = 0.0...1.0
        guard ordinaryPeaks.count <= LearningRule.ordinaryWindow, deliberatePeaks.count <= LearningRule.deliberateWindow,
              ordinaryPeaks.allSatisfy(valid.contains), deliberatePeaks.allSatisfy(valid.contains),
              ordinaryContacts >= ordinaryPeaks.count, deliberatePresses >= deliberatePeaks.count,
              heldStill.allSatisfy(ordinaryPeaks.indices.contains),
              zip(heldStill, heldStill.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
        // Only while too few ordinary contacts are remembered to judge them, as the rule keeps them.
        guard quick.isEmpty || ordinaryPeaks.count < LearningRule.minimumOrdinary, quick.count <= LearningRule.quickTaps,
              quick.allSatisfy({ valid.contains($0.peak) && (0...ordinaryContacts).contains($0.after) }),
              zip(quick, quick.dropFirst()).allSatisfy({ $0.after <= $1.after }) else { return nil }
        unjudgedQuick = quick.map(\.peak)
        unjudgedQuickAfter = quick.map(\.after)
        if let levels {
            guard LearningRule.bounds.contains(levels.threshold), levels.release >= 0, levels.release < levels.threshold,
                  levels.ordinary >= 0, levels.ordinary < levels.threshold else { return nil }
        }
        self.ordinaryPeaks = ordinaryPeaks
        let positions = Set(heldStill)
        ordinaryHeldStill = ordinaryPeaks.indices.map(positions.contains)
        self.deliberatePeaks = deliberatePeaks
        self.ordinaryContacts = ordinaryContacts
        self.deliberatePresses = deliberatePresses
        self.levels = levels
        self.moving = moving
        self.calibrated = calibrated
    }

    /// The levels a learning deep press uses on this device: the learned ones, or `start`.
    public func effectiveLevels(start: PressLevels) -> PressLevels {
        calibrated ? start : levels ?? start
    }

    /// Notes one finished contact, down and lifted over `span` when it is known. The levels do
    /// not move here: only `settle`, once no contact of the device is down, moves them.
    public mutating func record(_ evidence: PressEvidence, span: ClosedRange<Double>? = nil) {
        guard !calibrated else { return }
        let lift = ordinaryLift
        ordinaryLift = nil
        switch evidence {
        case .fellShort(let peak):
            // Judged against fewer ordinary contacts, a light hand's deep presses from its first
            // contact on would be ordinary, and the level they must stand out from made of
            // themselves: the threshold would climb out of its reach and stay there.
            guard ordinaryPeaks.count >= LearningRule.minimumOrdinary else {
                Self.remember(peak, in: &unjudgedPeaks, keeping: LearningRule.deliberateWindow)
                return
            }
            recordJudged(peak, against: ordinaryLevel)
            return
        case .quick(let peak):
            guard ordinaryPeaks.count >= LearningRule.minimumOrdinary else {
                Self.remember(peak, in: &unjudgedQuick, keeping: LearningRule.quickTaps)
                unjudgedQuickAfter.append(ordinaryContacts)
                if unjudgedQuickAfter.count > unjudgedQuick.count { unjudgedQuickAfter.removeFirst() }
                // A dozen contacts below the threshold among them, each tap of a run counted (a
                // sentence typed on the screen remembers as one contact, but shows thirty light
                // taps), show this hand's taps do not reach it: its quick presses wait to be
                // judged. Contacts before them do not count: a heavy tapper who typed a
                // sentence once is still one.
                if unjudgedQuick.count >= LearningRule.quickTaps, let first = unjudgedQuickAfter.first,
                   ordinaryContacts - first < LearningRule.minimumOrdinary {
                    // Two dozen quick presses before a dozen contacts that did not reach the
                    // threshold: this hand's taps are what reach it. Ordinary contacts, each
                    // (never one run: right-clicked, each came between), counted as presses
                    // held still are, so that once a dozen taps and strokes show a lighter hand
                    // (a person who tried the deep press a dozen times first), these peaks
                    // leave its ordinary level and the threshold comes back down.
                    let taps = unjudgedQuick
                    unjudgedQuick = []
                    unjudgedQuickAfter = []
                    for tap in taps { rememberOrdinary(tap, heldStill: true) }
                    ordinaryContacts += taps.count
                    unsettled += taps.count
                    judgeUnjudged()
                }
                return
            }
            recordJudged(peak, against: ordinaryLevel)
            return
        case .ordinary(let peak), .heldStill(let peak):
            ordinaryContacts += 1
            ordinaryLift = span?.upperBound
            if let span, let lift, span.lowerBound >= lift, span.lowerBound - lift < LearningRule.run,
               let last = ordinaryPeaks.indices.last {
                // One run with the contact before: the hardest of them stands for both, and the
                // levels take no step more for it.
                ordinaryPeaks[last] = Swift.max(ordinaryPeaks[last], Swift.min(Swift.max(peak, 0), 1))
                return
            }
            if case .heldStill = evidence { rememberOrdinary(peak, heldStill: true) } else { rememberOrdinary(peak, heldStill: false) }
            judgeUnjudged()
        case .deliberate(let peak):
            Self.remember(peak, in: &deliberatePeaks, keeping: LearningRule.deliberateWindow)
            deliberatePresses += 1
        }
        unsettled += 1
    }

    /// Once a dozen ordinary contacts are remembered, the presses lifted short and the quick
    /// presses that waited for them are judged, all against the same level: the ordinary
    /// contacts', none of these among them.
    private mutating func judgeUnjudged() {
        guard ordinaryPeaks.count >= LearningRule.minimumOrdinary, !unjudgedPeaks.isEmpty || !unjudgedQuick.isEmpty else { return }
        let level = ordinaryLevel
        let (short, quick) = (unjudgedPeaks, unjudgedQuick)
        unjudgedPeaks = []
        unjudgedQuick = []
        unjudgedQuickAfter = []
        for peak in short + quick { recordJudged(peak, against: level) }
    }

    /// A press lifted short, or a quick one, is meant when it stands out from the ordinary
    /// level; else one of the ordinary contacts (a firm hand resting; a heavy hand's tap), held
    /// still: kept out of the ordinary level once taps and strokes show it stands apart.
    private mutating func recordJudged(_ peak: Double, against ordinaryLevel: Double) {
        if peak >= ordinaryLevel + LearningRule.standOut {
            record(.deliberate(peak: peak))
            return
        }
        ordinaryLift = nil
        ordinaryContacts += 1
        rememberOrdinary(peak, heldStill: true)
        unsettled += 1
    }

    private mutating func rememberOrdinary(_ peak: Double, heldStill: Bool) {
        Self.remember(peak, in: &ordinaryPeaks, keeping: LearningRule.ordinaryWindow)
        ordinaryHeldStill.append(heldStill)
        if ordinaryHeldStill.count > ordinaryPeaks.count {
            ordinaryHeldStill.removeFirst(ordinaryHeldStill.count - ordinaryPeaks.count)
        }
    }

    /// The ordinary peaks the levels are made of: every one remembered, but for those held
    /// still that peak `LearningRule.stillApart` or more above the level of the others (the
    /// `ordinaryQuantile` of the taps' and strokes'), once `LearningRule.minimumOrdinary` of
    /// those are remembered.
    public var countedOrdinaryPeaks: [Double] {
        let others = zip(ordinaryPeaks, ordinaryHeldStill).filter { !$0.1 }.map(\.0)
        guard others.count >= LearningRule.minimumOrdinary, others.count < ordinaryPeaks.count else { return ordinaryPeaks }
        let apart = Self.quantile(others, LearningRule.ordinaryQuantile) + LearningRule.stillApart
        return zip(ordinaryPeaks, ordinaryHeldStill).filter { !$0.1 || $0.0 < apart }.map(\.0)
    }

    /// The ordinary level *o*: the `ordinaryQuantile` of the counted ordinary peaks.
    public var ordinaryLevel: Double {
        Self.quantile(countedOrdinaryPeaks, LearningRule.ordinaryQuantile)
    }

    /// Moves the levels toward their aim by at most a step per contact recorded since the last
    /// call; call it only when no contact of the device is down. True when they changed.
    public mutating func settle() -> Bool {
        let contacts = unsettled
        unsettled = 0
        guard !calibrated, contacts > 0, let aim = aim else { return false }
        let current = levels?.threshold ?? PressLevels.start.threshold
        let distance = aim - current
        if !moving {
            // Deliberate presses falling short of the threshold (a press that reaches it is
            // claimed, and peaks at it or above), one in ten (`shortQuantile`): the hand presses
            // on purpose and gets nothing, so the threshold comes down toward them however near
            // the aim is.
            let fallingShort = deliberatePeaks.count >= LearningRule.minimumDeliberate
                && Self.quantile(deliberatePeaks, LearningRule.shortQuantile) < current && distance < 0
            guard fallingShort || distance < -LearningRule.deadBand.down || distance > LearningRule.deadBand.up else {
                return false
            }
            moving = true
        }
        let reach = LearningRule.step * Double(contacts)
        let threshold: Double
        if abs(distance) <= Swift.max(reach, LearningRule.arrival) {
            threshold = aim
            moving = false
        } else {
            threshold = current + (distance > 0 ? reach : -reach)
        }
        let next = Self.levels(threshold: threshold, hardestOrdinary: countedOrdinaryPeaks.max() ?? 0)
        guard next != levels else { return false }
        levels = next
        return true
    }

    /// The threshold the rule aims at now; nil until enough ordinary contacts were seen.
    public var aim: Double? {
        guard ordinaryPeaks.count >= LearningRule.minimumOrdinary else { return nil }
        let ordinary = ordinaryLevel
        var aim = LearningRule.ratio * ordinary
        var deliberateCap: Double?
        if deliberatePeaks.count >= LearningRule.minimumDeliberate {
            let cap = LearningRule.deliberateFraction * Self.quantile(deliberatePeaks, LearningRule.deliberateQuantile)
            deliberateCap = cap
            aim = Swift.min(aim, cap)
        } else {
            // Before the hand has shown how hard it presses on purpose, the threshold rises
            // above today's only as far as its ordinary contacts need (the margin): a firm
            // hand, its taps well below 0.7, would otherwise take it past the deep presses it
            // has not made yet.
            aim = Swift.min(aim, Swift.max(ordinary + LearningRule.margin, PressLevels.start.threshold))
        }
        aim = Swift.max(aim, marginFloor(ordinary: ordinary, deliberateCap: deliberateCap))
        return Self.rounded(Swift.min(Swift.max(aim, LearningRule.bounds.lowerBound), LearningRule.bounds.upperBound))
    }

    /// The lowest the threshold aims: `margin` above the ordinary level, so a run of deliberate
    /// presses never brings it down among the ordinary contacts (a pen rested to the hold limit
    /// makes such presses). Where the deliberate presses (`deliberateCap`: 0.9 of their lower
    /// quartile) need it lower and stand apart from the ordinary contacts (nine in ten peak
    /// `standOut` or more above the hardest counted) as one group (`oneGroup`), the margin
    /// yields to them, down to `standOut` above that contact: a medium hand (taps to 0.3, deep
    /// presses 0.45-0.55) had its threshold at 0.47-0.48 by the margin alone, among its
    /// presses. A hand whose presses the margin leaves within reach keeps it whole: another
    /// person's firmer taps on a light hand's device right-click no sooner.
    private func marginFloor(ordinary: Double, deliberateCap: Double?) -> Double {
        let floor = ordinary + LearningRule.margin
        let lightest = Self.quantile(deliberatePeaks, LearningRule.apartQuantile)
        // One group: the hardest within `oneGroup` of the lightest. A pen rested above the taps
        // beside deep presses far harder is two (its rests counted as presses that fell short),
        // and the margin keeps the rests from right-clicking.
        guard let deliberateCap, deliberateCap < floor, let hardest = countedOrdinaryPeaks.max(),
              lightest >= hardest + LearningRule.standOut,
              (deliberatePeaks.max() ?? 0) <= lightest + LearningRule.oneGroup else {
            return floor
        }
        return Swift.max(deliberateCap, hardest + LearningRule.standOut)
    }

    /// The three levels for a threshold: release in today's proportion, and the ordinary level
    /// just above the hardest ordinary contact remembered, kept between half the threshold and
    /// a gap below it (so a heavy hand's still presses are handed over, not held to the limit).
    static func levels(threshold: Double, hardestOrdinary: Double) -> PressLevels {
        let ordinary = Swift.min(Swift.max(hardestOrdinary + LearningRule.ordinaryHeadroom, threshold / 2),
                                 threshold - LearningRule.ordinaryGap)
        return PressLevels(threshold: rounded(threshold), release: rounded(threshold * LearningRule.releaseRatio),
                           ordinary: rounded(ordinary))
    }

    private static func remember(_ peak: Double, in window: inout [Double], keeping count: Int) {
        window.append(Swift.min(Swift.max(peak, 0), 1))
        if window.count > count { window.removeFirst(window.count - count) }
    }

    /// The `q` quantile, linearly interpolated between the sorted values.
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        guard let first = sorted.first else { return 0 }
        let position = q * Double(sorted.count - 1)
        let lower = Int(position)
        guard lower + 1 < sorted.count else { return sorted.last ?? first }
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[lower + 1] - sorted[lower]) * fraction
    }

    /// Levels kept to a thousandth of the range: what the state file and `--json` say is
    /// exactly what the engine uses.
    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}

/// A change of one device's learned levels: `run --json` and `replay --json` report it.
public struct LearnedChange: Sendable, Hashable {
    public var time: Double
    /// The device's name, as X gives it.
    public var device: String
    /// What the device's state is kept under: its name and, where X says them, its vendor and
    /// product ids (`LearningKey`).
    public var key: String
    public var previous: PressLevels
    public var levels: PressLevels
    /// The device's learner after the change: what `run` saves.
    public var learner: HandLearner

    public var ordinaryContacts: Int { learner.ordinaryContacts }
    public var deliberatePresses: Int { learner.deliberatePresses }

    /// `key` is the name alone unless given.
    public init(time: Double, device: String, key: String? = nil, previous: PressLevels, levels: PressLevels,
                learner: HandLearner) {
        self.time = time
        self.device = device
        self.key = key ?? device
        self.previous = previous
        self.levels = levels
        self.learner = learner
    }
}

/// Every device's learner, by its `LearningKey` (its name, and its vendor and product ids where
/// X says them; a state kept before the ids were part of the key, by its name alone): what
/// `run` loads from and saves to
/// `$XDG_STATE_HOME/gesture-bridge/`, and what `replay` starts from.
public struct PressLearning: Sendable, Hashable {
    public var devices: [String: HandLearner]
    /// The names among `devices` whose state was kept under the name alone before ids were part
    /// of the key (`LearnedStateFile.keptBeforeIDs`): a device of that name with ids learns on
    /// from it. Any other state under a name alone is a device's without ids, and only its own.
    public var keptBeforeIDs: Set<String>

    public init(devices: [String: HandLearner] = [:], keptBeforeIDs: Set<String> = []) {
        self.devices = devices
        self.keptBeforeIDs = keptBeforeIDs
    }
}
