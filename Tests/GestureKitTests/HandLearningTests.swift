import Foundation
import Testing
@testable import GestureKit
import SeededRandom

/// The bridge learns the hand (issue 24): the rule on its own, and the targets as replays of
/// generated traces with the built-in default config, which learns.
@Suite("Learning the hand")
struct HandLearningTests {
    static func defaults(learn: Bool = true) throws -> BindingSet {
        var configuration = try ConfigLoader.parse(DefaultConfig.text, file: DefaultConfig.name)
        configuration.learn = learn
        return configuration
    }

    /// `ordinary` ordinary contacts, then `next` contacts of which every fourth is deliberate;
    /// `deliberateFirst`: a deliberate press before them all.
    static func session(_ hand: HandTrace.Hand, seed: UInt64, ordinary: Int = 40, next: Int = 40,
                        deliberateFirst: Bool = false) -> HandTrace {
        var random = SplitMix64(seed: seed)
        var trace = HandTrace()
        if deliberateFirst { trace.add(hand.deliberateContact(&random), random: &random) }
        for _ in 0..<ordinary { trace.add(hand.ordinaryContact(&random), random: &random) }
        for index in 0..<next {
            trace.add(index % 4 == 3 ? hand.deliberateContact(&random) : hand.ordinaryContact(&random), random: &random)
        }
        return trace
    }

    /// Each hand in turn, for so many contacts, every so many a deliberate press.
    static func days(seed: UInt64, _ spells: [(hand: HandTrace.Hand, contacts: Int, deliberateEvery: Int)]) -> HandTrace {
        var random = SplitMix64(seed: seed)
        var trace = HandTrace()
        for spell in spells {
            for index in 0..<spell.contacts {
                let deliberate = index % spell.deliberateEvery == spell.deliberateEvery - 1
                trace.add(deliberate ? spell.hand.deliberateContact(&random) : spell.hand.ordinaryContact(&random), random: &random)
            }
        }
        return trace
    }

    struct Outcome: CustomStringConvertible {
        var deliberateClicked = 0, deliberate = 0, ordinaryClicked = 0, ordinary = 0
        var levels: PressLevels?

        var description: String {
            "\(deliberateClicked)/\(deliberate) deliberate right-clicked, \(ordinaryClicked)/\(ordinary) ordinary; "
                + "learned \(levels.map { "\($0.threshold)/\($0.release)/\($0.ordinary)" } ?? "nothing")"
        }
    }

    /// What became of the contacts after the first `skip`.
    static func outcome(_ trace: HandTrace, skip: Int, configuration: BindingSet) -> (Outcome, [EngineOutput]) {
        let outputs = TraceReplay.run(trace.trace, configuration: configuration)
        let clicked = trace.rightClicked(in: outputs)
        var outcome = Outcome()
        for (index, contact) in trace.contacts.enumerated() where index >= skip {
            if contact.isDeliberate {
                outcome.deliberate += 1
                if clicked.contains(index) { outcome.deliberateClicked += 1 }
            } else {
                outcome.ordinary += 1
                if clicked.contains(index) { outcome.ordinaryClicked += 1 }
            }
        }
        outcome.levels = outputs.compactMap(\.learnedChange).last?.levels
        return (outcome, outputs)
    }

    /// What became of the contacts after the first `skip` of `days(seed:_:)`, replayed with the
    /// built-in default config.
    static func daysOutcome(seed: UInt64, _ spells: [(hand: HandTrace.Hand, contacts: Int, deliberateEvery: Int)],
                            skip: Int) throws -> Outcome {
        outcome(days(seed: seed, spells), skip: skip, configuration: try defaults()).0
    }

    /// `trace` replayed with the built-in default config: after the first `skip` contacts, every deep
    /// press right-clicks, nothing else does, and the threshold never rises past `ceiling`.
    @discardableResult
    static func expectDeepPressesAlone(_ trace: HandTrace, skip: Int, thresholdAtMost ceiling: Double = 0.7, sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
        let (outcome, outputs) = Self.outcome(trace, skip: skip, configuration: try defaults())
        #expect(outcome.deliberateClicked == outcome.deliberate && outcome.ordinaryClicked == 0, "\(outcome)", sourceLocation: sourceLocation)
        let learned = outputs.compactMap(\.learnedChange)
        #expect(learned.allSatisfy { $0.levels.threshold <= ceiling }, "\(outcome): \(learned)", sourceLocation: sourceLocation)
        return outcome
    }

    /// The lowest threshold learning took the device to over a replay.
    static func lowestThreshold(_ outputs: [EngineOutput]) -> Double {
        outputs.compactMap(\.learnedChange).map(\.levels.threshold).min() ?? PressLevels.start.threshold
    }

    // MARK: The rule

    @Test("eleven ordinary contacts move nothing; the twelfth starts the move, at most 0.02 a contact")
    func neverFromFew() {
        var learner = HandLearner()
        for _ in 0..<11 {
            learner.record(.ordinary(peak: 0.1))
            let moved = learner.settle()
            #expect(moved == false)
        }
        #expect(learner.levels == nil)
        learner.record(.ordinary(peak: 0.1))
        let moved = learner.settle()
        #expect(moved)
        #expect(learner.levels?.threshold == 0.68)
        // Several contacts recorded while one was down move it a step each, at once.
        learner.record(.ordinary(peak: 0.1))
        learner.record(.ordinary(peak: 0.1))
        let movedTwice = learner.settle()
        #expect(movedTwice)
        #expect(learner.levels?.threshold == 0.64)
        for _ in 0..<40 {
            learner.record(.ordinary(peak: 0.1))
            _ = learner.settle()
        }
        // 0.1 + the 0.2 margin, above twice 0.1: the margin wins.
        #expect(learner.levels == PressLevels(threshold: 0.3, release: 0.214, ordinary: 0.15))
        #expect(learner.moving == false)
    }

    @Test("a hand today's levels fit (ordinary peaks spread up to 0.33-0.39) leaves them exactly as they are")
    func deadBand() {
        for top in [0.33, 0.35, 0.39] {
            var learner = HandLearner()
            for index in 0..<200 {
                learner.record(.ordinary(peak: 0.15 + (top - 0.15) * Double(index % 10) / 9))
                if index % 5 == 0 { learner.record(.deliberate(peak: 0.85)) }
                _ = learner.settle()
            }
            #expect(learner.levels == nil, "ordinary up to \(top)")
        }
    }

    @Test("a thousand contacts of any one kind keep the threshold within 0.25-0.9", arguments: [0.0, 0.05, 0.3, 0.6, 0.95, 1.0])
    func bounded(peak: Double) {
        for deliberate in [false, true] {
            var learner = HandLearner()
            for _ in 0..<1000 {
                learner.record(deliberate ? .deliberate(peak: peak) : .ordinary(peak: peak))
                _ = learner.settle()
                let threshold = learner.effectiveLevels(start: .start).threshold
                #expect(LearningRule.bounds.contains(threshold))
            }
            // Deliberate presses alone never move it: there is no ordinary level to keep a margin from.
            if deliberate { #expect(learner.levels == nil) }
        }
    }

    @Test("a run of deliberate presses, however light, never brings the threshold within 0.2 of the ordinary level")
    func deliberateKeepsMargin() {
        var learner = HandLearner()
        for index in 0..<50 { learner.record(.ordinary(peak: 0.15 + 0.2 * Double(index % 10) / 9)) }
        _ = learner.settle()
        for _ in 0..<1000 {
            learner.record(.deliberate(peak: 0.36))
            _ = learner.settle()
        }
        let ordinaryLevel = HandLearner.quantile(learner.ordinaryPeaks, LearningRule.ordinaryQuantile)
        #expect(learner.effectiveLevels(start: .start).threshold >= ordinaryLevel + LearningRule.margin - 0.001)
        #expect(learner.effectiveLevels(start: .start).threshold > 0.35 + 0.15)
    }

    /// Found in a sweep of hands between the light one and today's: the margin of 0.2 over a
    /// medium hand's ordinary level (taps to 0.3) kept its threshold at 0.45-0.5, among its deep
    /// presses at 0.45-0.55, however far apart from its taps they all were.
    @Test("deep presses nine in ten 0.1 or more above the hardest ordinary contact let the threshold come within 0.1 of it; one ordinary contact near them keeps the whole margin")
    func deliberateApartFromOrdinary() {
        var learner = HandLearner()
        for index in 0..<50 { learner.record(.ordinary(peak: 0.15 + 0.15 * Double(index % 10) / 9)) }
        for index in 0..<10 { learner.record(.deliberate(peak: 0.45 + 0.1 * Double(index) / 9)) }
        let aim = learner.aim ?? 0
        #expect(aim < learner.ordinaryLevel + LearningRule.margin)
        #expect(aim >= 0.3 + LearningRule.standOut - 0.0005)
        #expect(aim <= 0.45, "every deep press reaches it")
        var harder = learner
        harder.record(.ordinary(peak: 0.4))
        #expect((harder.aim ?? 0) >= harder.ordinaryLevel + LearningRule.margin - 0.0005)
    }

    /// Found in review: a press lifted short while there were no ordinary contacts yet counted
    /// as one, and with a few, the level it had to stand out from was made of the earlier
    /// such presses; the ordinary level came to 0.475, the aim to 0.9.
    @Test("a light hand's deep presses lifted short from its first contact on stand out from its taps")
    func fellShortFromTheStart() {
        var learner = HandLearner()
        // Three presses lifted short among the first contacts, then taps until twelve ordinary.
        for peak in [0.495, 0.12, 0.1, 0.15, 0.483, 0.11, 0.14, 0.09, 0.408, 0.13, 0.12, 0.1, 0.11, 0.14, 0.12] {
            learner.record(peak > 0.3 ? .fellShort(peak: peak) : .ordinary(peak: peak))
            _ = learner.settle()
        }
        #expect(learner.ordinaryPeaks.count == 12)
        #expect(learner.ordinaryPeaks.allSatisfy { $0 < 0.3 })
        #expect(learner.deliberatePresses == 3)
        #expect(learner.unjudgedPeaks.isEmpty)
        #expect((learner.aim ?? 0.7) <= 0.45)
    }

    @Test("a press lifted short that does not stand out from the ordinary contacts is one of them, once they can tell")
    func fellShortJudgedOrdinary() {
        var learner = HandLearner()
        learner.record(.fellShort(peak: 0.35))
        #expect(learner.ordinaryContacts == 0 && learner.deliberatePresses == 0)
        for _ in 0..<12 { learner.record(.ordinary(peak: 0.3)) }
        #expect(learner.ordinaryContacts == 13)
        #expect(learner.deliberatePresses == 0)
        #expect(learner.unjudgedPeaks.isEmpty)
    }

    /// Found in review: a lighter hand on a device a firmer hand taught gave up its deep presses
    /// short of the firmer hand's threshold, and they stood out by less than 0.1 from the firmer
    /// hand's ordinary level: counted ordinary, they made that level themselves (a quarter of
    /// its contacts, above all its taps) and the threshold never came down.
    @Test("a firm hand's contacts, then a lighter hand's: once its taps make the level its presses lifted short stand out, and the aim comes down to them")
    func lighterHandAfterFirm() {
        var learner = HandLearner()
        for index in 0..<60 {
            learner.record(index % 20 == 19 ? .deliberate(peak: 0.85) : .ordinary(peak: 0.15 + 0.27 * Double(index % 10) / 9))
            _ = learner.settle()
        }
        let firmPresses = learner.deliberatePresses
        for index in 0..<120 {
            learner.record(index % 4 == 3 ? .fellShort(peak: 0.42) : .ordinary(peak: 0.06 + 0.12 * Double(index % 9) / 8))
            _ = learner.settle()
        }
        #expect(learner.deliberatePresses > firmPresses + 10, "its last presses lifted short count as meant")
        #expect((learner.aim ?? 0.7) <= 0.4)
        #expect((learner.levels?.threshold ?? 0.7) <= 0.4)
    }

    @Test("ordinary contacts held still that peak 0.2 or more above the taps and strokes are left out of the ordinary level; nearer ones, or with fewer than 12 taps and strokes to tell, count")
    func heldStillApart() {
        func learner(taps: Int, stillPeak: Double) -> HandLearner {
            var learner = HandLearner()
            for index in 0..<taps { learner.record(.ordinary(peak: 0.1 + 0.1 * Double(index % 10) / 9)) }
            for _ in 0..<10 { learner.record(.heldStill(peak: stillPeak)) }
            return learner
        }
        // Taps and strokes to 0.2 (their level 0.19): a rest at 0.39 or harder is left out.
        let apart = learner(taps: 40, stillPeak: 0.4)
        #expect(apart.heldStill == Array(40..<50))
        #expect(apart.countedOrdinaryPeaks.count == 40)
        #expect(abs(apart.ordinaryLevel - 0.19) < 0.001)
        #expect((apart.aim ?? 0.7) <= 0.4)
        // A hand resting a bit harder than it taps keeps its rests in its level, as before.
        let near = learner(taps: 40, stillPeak: 0.35)
        #expect(near.countedOrdinaryPeaks.count == 50)
        #expect(near.ordinaryLevel == 0.35)
        // Eleven taps and strokes are too few to tell what the hand's own level is.
        let few = learner(taps: 11, stillPeak: 0.4)
        #expect(few.countedOrdinaryPeaks.count == 21)
        #expect(few.ordinaryLevel == 0.4)
    }

    @Test("calibrated: nothing is learned nor used until reset")
    func calibratedWins() {
        var learner = HandLearner()
        learner.calibrated = true
        for _ in 0..<100 { learner.record(.ordinary(peak: 0.05)) }
        let moved = learner.settle()
        #expect(moved == false)
        #expect(learner.ordinaryContacts == 0)
        #expect(learner.effectiveLevels(start: .start) == .start)
    }

    // MARK: The targets, on replay

    @Test("light hand: after 40 ordinary contacts, 8 or more of 10 deliberate presses right-click and no ordinary contact does",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func lightHand(seed: UInt64) throws {
        let trace = Self.session(.light, seed: seed)
        let (outcome, outputs) = Self.outcome(trace, skip: 40, configuration: try Self.defaults())
        #expect(outcome.deliberate == 10)
        #expect(outcome.deliberateClicked >= 8, "\(outcome)")
        #expect(outcome.ordinaryClicked == 0, "\(outcome)")
        // Without learning none does: the built-in 0.7 is out of this hand's reach.
        let (fixed, _) = Self.outcome(trace, skip: 40, configuration: try Self.defaults(learn: false))
        #expect(fixed.deliberateClicked == 0)
        // Every change is reported, and moves at most 0.02 per contact since the last.
        let changes = outputs.compactMap(\.learnedChange)
        #expect(!changes.isEmpty)
        for change in changes {
            #expect(abs(change.levels.threshold - change.previous.threshold) <= 0.02 * 2 + 1e-9)
            #expect(change.device == HandTrace.pen.name)
        }
    }

    @Test("heavy hand: after 40 ordinary contacts, at most 1 of the next 30 ordinary contacts right-clicks and 9 or more of 10 deliberate presses do",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func heavyHand(seed: UInt64) throws {
        let trace = Self.session(.heavy, seed: seed)
        let (outcome, _) = Self.outcome(trace, skip: 40, configuration: try Self.defaults())
        #expect(outcome.ordinary == 30)
        #expect(outcome.ordinaryClicked <= 1, "\(outcome)")
        #expect(outcome.deliberateClicked >= 9, "\(outcome)")
    }

    /// Found in review: a hand whose taps reach 0.7 had each claimed, right-clicked, and taken
    /// for a deliberate press: no ordinary contact ever, so nothing was learned, and every tap
    /// right-clicked for good.
    @Test("heavier hand, every touch past 0.7 (ordinary 0.72-0.85, deliberate 0.95-1): its taps teach it; from its 121st contact on at most 1 of 72 ordinary contacts right-clicks, and every deliberate press does",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func heavierHand(seed: UInt64) throws {
        let trace = Self.days(seed: seed, [(.heavier, 200, 10)])
        let (outcome, outputs) = Self.outcome(trace, skip: 120, configuration: try Self.defaults())
        #expect(outcome.ordinary == 72 && outcome.deliberate == 8, "\(outcome)")
        #expect(outcome.ordinaryClicked <= 1, "\(outcome)")
        #expect(outcome.deliberateClicked == outcome.deliberate, "\(outcome)")
        #expect(outputs.compactMap(\.learnedChange).last?.levels.threshold == LearningRule.bounds.upperBound, "\(outcome)")
    }

    @Test("a hand tapping only, each tap past 0.7 (0.72-0.85), a deep press (0.95-1) in ten: its taps right-click only while the learner gathers them (30 at most), none of its last 90 does, and every deep press still right-clicks",
          arguments: [1, 2, 3] as [UInt64])
    func heavierTapsOnly(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var trace = HandTrace()
        for index in 0..<200 {
            trace.add(index % 10 == 9 ? .deliberate(peak: Double.random(in: 0.95...1, using: &random))
                                      : .sharpTap(peak: Double.random(in: 0.72...0.85, using: &random)), random: &random)
        }
        let (outcome, outputs) = Self.outcome(trace, skip: 100, configuration: try Self.defaults())
        #expect(outcome.ordinary == 90 && outcome.ordinaryClicked == 0, "\(outcome)")
        #expect(outcome.deliberateClicked == 10, "\(outcome)")
        let clicked = trace.rightClicked(in: outputs)
        let tapsClicked = trace.contacts.indices.filter { !trace.contacts[$0].isDeliberate && clicked.contains($0) }
        #expect(tapsClicked.count <= 30, "the taps that right-clicked before the learner had enough of them: \(tapsClicked)")
    }

    /// Found in review of a week of learning: a heavy hand's quick presses waited for two dozen
    /// in one run, and a bridge restarted every fifteen contacts (a short session a day) forgot
    /// them at each stop: every tap right-clicked for good.
    @Test("a hand whose every tap reaches 0.7, the bridge restarted every 15 contacts (its state kept and read back as run does): its taps stop right-clicking as in one long run")
    func heavierTapsAcrossRestarts() throws {
        var random = SplitMix64(seed: 1)
        var learning = PressLearning()
        var last: (trace: HandTrace, outputs: [EngineOutput]) = (HandTrace(), [])
        for _ in 0..<10 {
            var trace = HandTrace()
            for index in 0..<15 {
                trace.add(index % 10 == 9 ? .deliberate(peak: Double.random(in: 0.95...1, using: &random))
                                          : .sharpTap(peak: Double.random(in: 0.72...0.85, using: &random)), random: &random)
            }
            var replayer = TraceReplayer(header: trace.trace.header, configuration: try Self.defaults(), learning: learning)
            var outputs: [EngineOutput] = []
            for event in trace.trace.events { replayer.handle(event, into: &outputs) }
            replayer.finish(into: &outputs)
            learning = PressLearning()
            for (key, learner) in replayer.learning.devices {
                let (device, kept) = try #require(LearnedStateFile.decode(LearnedStateFile.encode(device: key, learner: learner)))
                learning.devices[device] = kept
            }
            last = (trace, outputs)
        }
        let clicked = last.trace.rightClicked(in: last.outputs)
        let taps = last.trace.contacts.indices.filter { !last.trace.contacts[$0].isDeliberate && clicked.contains($0) }
        #expect(taps.isEmpty, "the tenth session, after 126 taps before it: \(taps.count) of its 14 taps right-clicked")
    }

    /// Found in review: the first version took a dozen quick presses before a dozen ordinary
    /// contacts for a heavy hand's taps: a person trying the deep press a dozen times on a fresh
    /// device had the threshold at 0.9 for good.
    @Test("typical hand whose first contacts are quick deep presses, a dozen in a row or one for each tap: every later quick press right-clicks, and the threshold never climbs",
          arguments: [(1, true), (2, true), (3, true), (1, false), (2, false), (3, false)] as [(UInt64, Bool)])
    func quickPressesFirst(seed: UInt64, inARow: Bool) throws {
        var random = SplitMix64(seed: seed)
        var trace = HandTrace()
        func quick() -> HandTrace.Contact { .quickPress(peak: Double.random(in: 0.85...0.95, using: &random)) }
        if inARow {
            for _ in 0..<12 { trace.add(quick(), random: &random) }
            for index in 0..<120 {
                trace.add(index % 4 == 3 ? quick() : HandTrace.Hand.typical.ordinaryContact(&random), random: &random)
            }
        } else {
            for index in 0..<160 {
                trace.add(index % 2 == 0 ? quick() : .tap(peak: Double.random(in: 0.15...0.35, using: &random)), random: &random)
            }
        }
        try Self.expectDeepPressesAlone(trace, skip: inARow ? 12 : 0)
    }

    /// Found in review (a long day): a sentence typed on an on-screen keyboard is one run of taps,
    /// which teaches as one contact, so eight sentences were eight contacts of the dozen quick
    /// presses wait for, and the 24 quick right-clicks made between them were taken for a heavy
    /// hand's taps: the threshold went to 0.9 at once, and every deep press after that failed.
    @Test("a typical hand typing sentences on the screen, three quick deep presses after each: every one right-clicks, and the threshold never climbs",
          arguments: [1, 2, 3] as [UInt64])
    func typedSentencesThenQuickPresses(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var trace = HandTrace()
        for _ in 0..<20 {
            trace.addSentence(peaks: 0.15...0.3, random: &random)
            for _ in 0..<3 { trace.add(.quickPress(peak: Double.random(in: 0.8...0.95, using: &random)), random: &random, pause: 1.5) }
        }
        let outcome = try Self.expectDeepPressesAlone(trace, skip: 0)
        #expect(outcome.deliberate == 60, "\(outcome)")
    }

    /// Found in review of the mend above (typed sentences): counting every contact the device
    /// ever had, a hand whose every tap reaches the threshold, having typed one sentence on the
    /// screen first, right-clicked on every tap for good (its quick presses waited to be judged
    /// against a dozen ordinary contacts that never came). Only the contacts among the quick
    /// presses count now.
    @Test("a hand whose every tap reaches 0.7, after typing one sentence first: none of its last 90 taps right-clicks, its deep presses all do",
          arguments: [1, 2, 3] as [UInt64])
    func heavierTapsAfterASentence(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var trace = HandTrace()
        trace.addSentence(peaks: 0.4...0.6, random: &random)
        for index in 0..<200 {
            trace.add(index % 10 == 9 ? .deliberate(peak: Double.random(in: 0.95...1, using: &random))
                                      : .sharpTap(peak: Double.random(in: 0.72...0.85, using: &random)), random: &random)
        }
        let (outcome, _) = Self.outcome(trace, skip: 130, configuration: try Self.defaults())
        #expect(outcome.ordinary == 90 && outcome.ordinaryClicked == 0, "\(outcome)")
        #expect(outcome.deliberateClicked == outcome.deliberate, "\(outcome)")
    }

    @Test("quick presses after a run of a dozen taps, or after a saved state of many contacts and few peaks: two dozen with none among them are the hand's taps, and the threshold climbs")
    func quickPressesAfterContactsBeforeThem() throws {
        var typed = HandLearner()
        var time = 0.0
        for _ in 0..<12 {
            typed.record(.ordinary(peak: 0.5), span: time...(time + 0.08))
            time += 0.2
        }
        _ = typed.settle()
        let restored = try #require(HandLearner(ordinaryPeaks: [0.5, 0.45, 0.55, 0.5, 0.4], deliberatePeaks: [], ordinaryContacts: 40,
                                                deliberatePresses: 0, levels: nil, moving: false, calibrated: false))
        for var learner in [typed, restored] {
            for _ in 0..<60 {
                learner.record(.quick(peak: 0.8))
                _ = learner.settle()
            }
            #expect((learner.levels?.threshold ?? 0.7) > 0.8, "\(String(describing: learner.levels))")
            #expect(learner.unjudgedQuick.isEmpty)
        }
    }

    @Test("a person who makes two dozen quick deep presses first, then uses the device as a typical hand: the threshold those presses raised comes back to 0.7 or below, and the quick presses right-click again",
          arguments: [1, 2, 3] as [UInt64])
    func quickPressesTakenForTapsComeBack(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var trace = HandTrace()
        func quick() -> HandTrace.Contact { .quickPress(peak: Double.random(in: 0.85...0.95, using: &random)) }
        for _ in 0..<24 { trace.add(quick(), random: &random) }
        for index in 0..<200 {
            trace.add(index % 4 == 3 ? quick() : HandTrace.Hand.typical.ordinaryContact(&random), random: &random)
        }
        let (outcome, outputs) = Self.outcome(trace, skip: 24 + 120, configuration: try Self.defaults())
        #expect(outcome.deliberateClicked == outcome.deliberate && outcome.ordinaryClicked == 0, "\(outcome)")
        #expect((outputs.compactMap(\.learnedChange).last?.levels.threshold ?? 0.7) <= 0.7, "\(outcome)")
    }

    @Test("typical hand pressing deep quickly (up to 0.85-0.95 in 50 ms, lifted at 130 ms), one press in four: every quick press right-clicks, no ordinary contact does, and the threshold never climbs",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func quickDeepPresses(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var trace = HandTrace()
        for index in 0..<120 {
            trace.add(index % 4 == 3 ? .quickPress(peak: Double.random(in: 0.85...0.95, using: &random))
                                     : HandTrace.Hand.typical.ordinaryContact(&random), random: &random)
        }
        let outcome = try Self.expectDeepPressesAlone(trace, skip: 0)
        #expect(outcome.deliberate == 30, "\(outcome)")
    }

    /// Found in review: a light hand pressing deep from its first contacts lifts each press
    /// short of 0.7, and those presses, counted ordinary, drove the threshold up to 0.9.
    /// Found in review: the first change reported today's built-in release and ordinary
    /// levels as its `previous`, whatever the config gave beside `threshold: learned`.
    @Test("each change's previous levels are those the presses used: the config's release and ordinary beside threshold: learned, then the last change's")
    func previousLevels() throws {
        let text = DefaultConfig.text.replacingOccurrences(of: "    threshold: learned\n",
                                                           with: "    threshold: learned\n    release: 0.3\n    ordinary: 0.2\n")
        let configuration = try ConfigLoader.parse(text, file: "config.yaml")
        let outputs = TraceReplay.run(Self.session(.light, seed: 1).trace, configuration: configuration)
        let changes = outputs.compactMap(\.learnedChange)
        try #require(changes.count >= 2)
        #expect(changes[0].previous == PressLevels(threshold: 0.7, release: 0.3, ordinary: 0.2))
        for (before, after) in zip(changes, changes.dropFirst()) {
            #expect(after.previous == before.levels)
        }
    }

    /// Found in review: with its very first contact a deep press lifted short, the light hand's
    /// threshold went to 0.9 and stayed there.
    @Test("light hand pressing deep from its first contact on, a tap first or a deep press: the threshold comes down to it, and 8 or more of its last 10 presses right-click",
          arguments: [false, true], [1, 2, 3, 4, 5] as [UInt64])
    func lightHandFromFirstContact(deliberateFirst: Bool, seed: UInt64) throws {
        let trace = Self.session(.light, seed: seed, ordinary: 0, next: 120, deliberateFirst: deliberateFirst)
        let (outcome, outputs) = Self.outcome(trace, skip: deliberateFirst ? 81 : 80, configuration: try Self.defaults())
        #expect(outcome.deliberate == 10)
        #expect(outcome.deliberateClicked >= 8, "\(outcome)")
        #expect(outcome.ordinaryClicked == 0, "\(outcome)")
        let threshold = try #require(outputs.compactMap(\.learnedChange).last?.levels.threshold)
        #expect(threshold <= 0.45, "\(outcome)")
    }

    /// Found in review, not fixed: a stroke is learned as an ordinary contact at the peak of the
    /// whole contact, force it reached after moving among it, where no deep press could come
    /// of it; a paragraph of handwriting firmer than the taps takes a light hand's threshold to
    /// about 0.6. Strokes teaching nothing fixes it, but leaves the ordinary level to fewer,
    /// lighter samples: a typical hand's threshold then moves (`typicalHand`, seed 3), and a
    /// tired hand's comes down too slowly (`tiredPressesFallingShort`, seed 4).
    @Test("light hand, then 60 strokes of handwriting at 0.2-0.35: 16 or more of its next 20 deliberate presses right-click",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func lightHandAfterWriting(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var trace = Self.days(seed: seed, [(.light, 60, 4)])
        for _ in 0..<60 { trace.add(.writing(peak: Double.random(in: 0.2...0.35, using: &random)), random: &random) }
        for index in 0..<80 {
            let hand = HandTrace.Hand.light
            trace.add(index % 4 == 3 ? hand.deliberateContact(&random) : hand.ordinaryContact(&random), random: &random)
        }
        let (outcome, _) = Self.outcome(trace, skip: 120, configuration: try Self.defaults())
        #expect(outcome.deliberate == 20)
        #expect(outcome.ordinaryClicked == 0, "\(outcome)")
        withKnownIssue("handwriting's strokes are learned as ordinary contacts at their peak (README, known limits)") {
            #expect(outcome.deliberateClicked >= 16, "\(outcome)")
        }
    }

    /// Found in review: presses that fall a little short (0.58-0.68 against 0.7: a tired hand)
    /// aim the threshold less than the dead band below it, so it never moved.
    @Test("typical hand, then tired presses at 0.58-0.68: the threshold comes down to them, and 4 or more of the last 5 right-click, no ordinary contact",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func tiredPressesFallingShort(seed: UInt64) throws {
        let tired = HandTrace.Hand(ordinary: 0.12...0.3, deliberate: 0.58...0.68)
        let outcome = try Self.daysOutcome(seed: seed, [(.typical, 60, 4), (tired, 80, 4)], skip: 120)
        #expect(outcome.deliberate == 5)
        #expect(outcome.deliberateClicked >= 4, "\(outcome)")
        #expect(outcome.ordinaryClicked == 0, "\(outcome)")
    }

    /// Found in a sweep of hands: a medium hand's threshold stayed 0.2 above its ordinary level
    /// (0.45-0.5), among its deep presses: 33-50 of 50 right-clicked (seeds 1-5).
    @Test("medium hand (ordinary 0.15-0.3, deep presses 0.45-0.55), every fourth contact a deep press: from its 101st contact on every deep press right-clicks, no ordinary contact does",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func mediumHand(seed: UInt64) throws {
        let outcome = try Self.daysOutcome(seed: seed, [(.medium, 300, 4)], skip: 100)
        #expect(outcome.deliberate == 50)
        #expect(outcome.deliberateClicked == 50 && outcome.ordinaryClicked == 0, "\(outcome)")
    }

    /// Found in the same sweep: on a device a typical hand taught, a medium hand's threshold came
    /// down to some 0.47 and stopped, the aim a little nearer than the dead band, while its
    /// lighter deep presses kept failing: the threshold moved on only once half of them did. It
    /// moves on once one in ten does now; the few that fail are the lightest, at 0.45-0.46.
    @Test("typical hand, then a medium one: of its last 25 deep presses 22 or more right-click (8-24 before), no ordinary contact",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func typicalThenMedium(seed: UInt64) throws {
        let outcome = try Self.daysOutcome(seed: seed, [(.typical, 200, 10), (.medium, 200, 4)], skip: 300)
        #expect(outcome.deliberate == 25)
        #expect(outcome.deliberateClicked >= 22 && outcome.ordinaryClicked == 0, "\(outcome)")
    }

    /// Found in review of the day's change: a typical hand resting its pen a little harder than
    /// it taps had every rest counted a deliberate press that fell short, the margin yielded to
    /// them as to a medium hand's deep presses, and every rest right-clicked (45 of 45 at
    /// 0.42-0.47). The margin yields now only to deliberate presses of one group, not to rests
    /// beside deep presses far above them: rests below the margin never right-click. (Rests
    /// nearer the margin still can, as before the change: 3-24 of 45 at 0.42-0.47; README.)
    @Test("typical hand resting the pen at 0.4-0.44 for 0.6 s or 9 s (taps and strokes 0.15-0.3, a deep press in 20, a rest in 5): no rest right-clicks, every deep press does",
          arguments: [1, 2, 3] as [UInt64], [0.6, 9])
    func typicalHandRestingAboveTaps(seed: UInt64, seconds: Double) throws {
        var random = SplitMix64(seed: seed)
        var trace = HandTrace()
        for index in 0..<400 {
            let contact: HandTrace.Contact
            if index % 20 == 19 {
                contact = .deliberate(peak: Double.random(in: 0.8...0.95, using: &random))
            } else if index % 5 == 4 {
                contact = .rest(peak: Double.random(in: 0.4...0.44, using: &random), seconds: seconds)
            } else {
                let peak = Double.random(in: 0.15...0.3, using: &random)
                contact = Bool.random(using: &random) ? .tap(peak: peak) : .stroke(peak: peak)
            }
            trace.add(contact, random: &random)
        }
        let (outcome, _) = Self.outcome(trace, skip: 100, configuration: try Self.defaults())
        #expect(outcome.ordinaryClicked == 0, "\(outcome)")
        #expect(outcome.deliberateClicked == outcome.deliberate, "\(outcome)")
    }

    /// Sixty hands drawn at random (taps and strokes up to 0.04-0.6, deep presses 0.1-0.35 above
    /// the hardest of them), a deep press in 4 or in 20, 300 contacts each: what the learner
    /// gives across hands, not one shape of them. With the margin over the ordinary level
    /// never yielding, 3,200 of the 3,600 deep presses from the 101st contact on right-clicked.
    @Test("sixty hands drawn at random: from their 101st contact on 99 in 100 deep presses right-click, and no ordinary contact does")
    func randomHands() throws {
        var random = SplitMix64(seed: 99)
        var deliberate = 0, deliberateClicked = 0, ordinaryClicked = 0
        var misses: [String] = []
        for number in 1...60 {
            let low = Double.random(in: 0.04...0.3, using: &random)
            let high = low + Double.random(in: 0.08...0.3, using: &random)
            let deepLow = high + Double.random(in: 0.1...0.35, using: &random)
            let deepHigh = Swift.min(1, deepLow + Double.random(in: 0.05...0.15, using: &random))
            let hand = HandTrace.Hand(ordinary: low...high, deliberate: deepLow...deepHigh)
            for every in [4, 20] {
                let trace = Self.days(seed: UInt64(number), [(hand, 300, every)])
                let (outcome, _) = Self.outcome(trace, skip: 100, configuration: try Self.defaults())
                deliberate += outcome.deliberate
                deliberateClicked += outcome.deliberateClicked
                ordinaryClicked += outcome.ordinaryClicked
                if outcome.ordinaryClicked > 0 || outcome.deliberateClicked < outcome.deliberate { misses.append("\(hand), 1 in \(every): \(outcome)") }
            }
        }
        #expect(deliberate == 3600)
        #expect(deliberateClicked * 100 >= deliberate * 99, "\(deliberateClicked)/\(deliberate)\n\(misses.joined(separator: "\n"))")
        #expect(ordinaryClicked == 0, "\(misses.joined(separator: "\n"))")
    }

    /// Found checking the rule above: its first version let the margin yield to any deep presses
    /// apart from the taps, and a light hand pressing deep often came to twice its ordinary
    /// level, 0.27-0.33: a typical hand after it on the same device right-clicked 0-3 of its
    /// first 25 ordinary contacts. The margin yields now only where the deep presses need it to.
    @Test("light hand pressing deep every fourth contact, then a typical one: none of the typical hand's ordinary contacts right-clicks, every deep press does",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func typicalAfterLight(seed: UInt64) throws {
        let outcome = try Self.daysOutcome(seed: seed, [(.light, 300, 4), (.typical, 100, 10)], skip: 300)
        #expect(outcome.ordinary == 90)
        #expect(outcome.ordinaryClicked == 0 && outcome.deliberateClicked == 10, "\(outcome)")
    }

    /// Found in review of the rule above: a firm hand's still presses just above the ordinary
    /// level, lifted after half a second, are ordinary for that hand, not presses that fell
    /// short; counted so, they would have brought the threshold down among its contacts.
    @Test("firm ordinary hand (contacts to 0.42, one deep press in 20): no ordinary contact right-clicks, and the threshold stays at 0.6 or above",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func firmOrdinaryHand(seed: UInt64) throws {
        let trace = Self.days(seed: seed, [(.firm, 120, 20)])
        let (outcome, outputs) = Self.outcome(trace, skip: 0, configuration: try Self.defaults())
        #expect(outcome.ordinaryClicked == 0, "\(outcome)")
        #expect(Self.lowestThreshold(outputs) >= 0.6, "\(outcome)")
    }

    /// Found in review: a burst of light typing (an on-screen keyboard's quick taps, lighter
    /// than the hand's strokes and still presses) made up the newest 50 contacts: the threshold
    /// came down to 0.3, and the firm hand's ordinary contacts right-clicked afterwards, each one
    /// that did counting as a deliberate press that kept it there.
    @Test("firm hand, then 150 typing taps at 0.04-0.12, 0.1-0.25 s from each lift to the next touch, then its usual contacts: none right-clicks, every deep press does, and the threshold stays at 0.6 or above",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func firmHandAfterTyping(seed: UInt64) throws {
        let firm = HandTrace.Hand.firm
        var random = SplitMix64(seed: seed)
        var trace = Self.days(seed: seed, [(firm, 120, 20)])
        for _ in 0..<150 {
            trace.add(.tap(peak: Double.random(in: 0.04...0.12, using: &random)), random: &random,
                      pause: Double.random(in: 0.1...0.25, using: &random))
        }
        for index in 0..<60 {
            trace.add(index % 20 == 19 ? firm.deliberateContact(&random) : firm.ordinaryContact(&random), random: &random)
        }
        let (outcome, outputs) = Self.outcome(trace, skip: 270, configuration: try Self.defaults())
        #expect(outcome.ordinary == 57)
        #expect(outcome.ordinaryClicked == 0, "\(outcome)")
        #expect(outcome.deliberateClicked == 3, "\(outcome)")
        #expect(Self.lowestThreshold(outputs) >= 0.6, "\(outcome)")
    }

    /// What a person resting the pen a little harder than they tap sees: their rests, held
    /// still to 0.4, are ordinary contacts, however the presses a lighter hand gives up are told
    /// apart (`heldStillApart`).
    @Test("firm hand resting a bit harder than it taps (taps and strokes 0.15-0.3, rests held still at 0.3-0.4, a deep press in 20): no rest right-clicks, every deep press does",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func firmHandRestingHarder(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var trace = HandTrace()
        for index in 0..<300 {
            if index % 20 == 19 {
                trace.add(.deliberate(peak: Double.random(in: 0.8...0.95, using: &random)), random: &random)
                continue
            }
            let kind = Int.random(in: 0..<10, using: &random)
            let peak = Double.random(in: 0.15...0.3, using: &random)
            let contact: HandTrace.Contact = kind < 5 ? .tap(peak: peak) : kind < 8 ? .stroke(peak: peak)
                : .still(peak: Double.random(in: 0.3...0.4, using: &random))
            trace.add(contact, random: &random)
        }
        let (outcome, _) = Self.outcome(trace, skip: 0, configuration: try Self.defaults())
        #expect(outcome.deliberate == 15)
        #expect(outcome.ordinaryClicked == 0, "\(outcome)")
        #expect(outcome.deliberateClicked == 15, "\(outcome)")
    }

    /// Found in review of a first mend (a longer memory the threshold kept its margin above):
    /// a hand that really got lighter (another person, a softer pressure curve) kept a
    /// threshold out of its reach for some 270 contacts.
    /// Found in review (it was so before that mend too): the lighter hand's deep presses, lifted
    /// short or levelled off below the firmer hand's ordinary level, counted as ordinary
    /// contacts and kept that level where it was; 0 of 40 right-clicked. Contacts held still
    /// that peak 0.2 above the hand's taps and strokes are now left out of it (`heldStillApart`).
    @Test("firm hand for 300 contacts, then a light one: 30 or more of its 40 deep presses from its 81st contact on right-click",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func firmThenLight(seed: UInt64) throws {
        let outcome = try Self.daysOutcome(seed: seed, [(.firm, 300, 20), (.light, 240, 4)], skip: 380)
        #expect(outcome.deliberate == 40)
        #expect(outcome.ordinaryClicked == 0, "\(outcome)")
        #expect(outcome.deliberateClicked >= 30, "\(outcome)")
    }

    /// Found in review of light and firm hands: a firm hand (taps and strokes to 0.42, deep
    /// presses 0.8-0.95) had its threshold taken up to 0.80-0.81, twice its ordinary level,
    /// before it had shown a deep press, and kept there by the median of its deep presses:
    /// those peaking at 0.8 failed (3 of 15, or 4 of 75, seed 4). It rises above 0.7 now only as
    /// far as the margin over its ordinary contacts needs until it has shown its deep presses,
    /// and no higher than nine tenths of their lower quartile after.
    @Test("firm hand, a deep press in 20 or in 4, 300 contacts: every deep press right-clicks, no ordinary contact does, and the threshold never rises past 0.72",
          arguments: [1, 2, 3, 4, 5] as [UInt64], [20, 4])
    func firmHandKeepsItsDeepPresses(seed: UInt64, deliberateEvery: Int) throws {
        let trace = Self.days(seed: seed, [(.firm, 300, deliberateEvery)])
        try Self.expectDeepPressesAlone(trace, skip: 0, thresholdAtMost: 0.72)
    }

    /// Quick taps in a run teach as one contact; taps a person's pause apart each teach.
    @Test("a run of taps each within 0.3 s of the last lift is one ordinary contact, its hardest; a pause of 0.3 s or more starts another")
    func runOfTaps() {
        var learner = HandLearner()
        learner.record(.ordinary(peak: 0.1), span: 0...0.05)
        learner.record(.ordinary(peak: 0.2), span: 0.2...0.25)
        learner.record(.ordinary(peak: 0.15), span: 0.4...0.45)
        #expect(learner.ordinaryPeaks == [0.2])
        learner.record(.ordinary(peak: 0.05), span: 0.75...0.8)
        learner.record(.deliberate(peak: 0.6), span: 0.9...1.2)
        learner.record(.ordinary(peak: 0.07), span: 1.3...1.35)
        #expect(learner.ordinaryPeaks == [0.2, 0.05, 0.07], "a deliberate press between ends the run")
        #expect(learner.ordinaryContacts == 5)
    }

    @Test("typical hand: exactly today's behaviour, every output the same as without learning",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func typicalHand(seed: UInt64) throws {
        let trace = Self.session(.typical, seed: seed, ordinary: 60, next: 60)
        let learning = TraceReplay.run(trace.trace, configuration: try Self.defaults())
        let fixed = TraceReplay.run(trace.trace, configuration: try Self.defaults(learn: false))
        let changes = learning.compactMap(\.learnedChange)
        #expect(changes.isEmpty, "\(changes.map(\.levels.threshold))")
        #expect(learning.count == fixed.count)
        #expect(learning == fixed, "outputs differ")
    }

    @Test("the iPhone recording from a fresh state: 6 of 6 right-clicks")
    func iPhoneRecording() throws {
        try Self.iPhoneRecording(jitterSeed: 0)
    }

    /// Samples bunched by a busy machine make the recording's slow climbs (0.045-0.1 of the
    /// range a second, in steps of 0.0025) look flatter than they are: the third press's
    /// 0.335-0.345 stretch and the fifth's start were handed over with the hold's earlier
    /// floor of 0.05 a second (`HoldPolicy.minimumRise`).
    @Test("the iPhone recording with every sample up to 50 ms late: 6 of 6",
          arguments: Array(1...20) as [UInt64])
    func iPhoneRecordingJittered(seed: UInt64) throws {
        try Self.iPhoneRecording(jitterSeed: seed)
    }

    static func iPhoneRecording(jitterSeed seed: UInt64) throws {
        var trace = try AnalyzeIOSRecordingTests.trace()
        if seed > 0 {
            var random = SplitMix64(seed: seed)
            var last = -Double.infinity
            for index in trace.events.indices {
                // Late by up to 50 ms, never before the sample that came before it.
                let late = trace.events[index].time + Double.random(in: 0...0.05, using: &random)
                last = Swift.max(last, late)
                trace.events[index].time = last
            }
        }
        let outputs = TraceReplay.run(trace, configuration: try Self.defaults())
        let decisions = outputs.compactMap { if case .decision(let decision) = $0 { return decision } else { return nil } }
        #expect(decisions.map(ScriptDecision.init) == Array(repeating: .claimed(by: "right-click"), count: 6))
        let clicks = outputs.filter { if case .action(let event) = $0 { event.action == .click(button: 3) } else { false } }
        #expect(clicks.count == 6)
    }

    /// Found in review (a busy machine): samples X reads together after the server stood still
    /// carry almost one time, the first of them the force from before the stall; a slow climb
    /// read so was taken for a press that had stood still, and handed over.
    @Test("the iPhone recording with the X server standing still 0.3 s somewhere in each press (its samples stamped at the stall's end): 6 of 6",
          arguments: Array(1...20) as [UInt64])
    func iPhoneRecordingStalled(seed: UInt64) throws {
        var trace = try AnalyzeIOSRecordingTests.trace()
        var random = SplitMix64(seed: seed)
        var stall: ClosedRange<Double>?
        for index in trace.events.indices {
            let event = trace.events[index]
            if event.phase == .begin {
                // Somewhere in the press's first 2 s: the slowest presses take 6 s to 0.7.
                let start = event.time + Double.random(in: 0...2, using: &random)
                stall = start...(start + 0.3)
            }
            if let stall, stall.contains(event.time) { trace.events[index].time = stall.upperBound }
            if event.phase == .end || event.phase == .cancel { stall = nil }
        }
        let outputs = TraceReplay.run(trace, configuration: try Self.defaults())
        let decisions = outputs.compactMap { if case .decision(let decision) = $0 { return decision } else { return nil } }
        #expect(decisions.map(ScriptDecision.init) == Array(repeating: .claimed(by: "right-click"), count: 6))
        let clicks = outputs.filter { if case .action(let event) = $0 { event.action == .click(button: 3) } else { false } }
        #expect(clicks.count == 6)
    }

    @Test("a light press held still is handed over as fast as today, fresh and after learning a light hand")
    func lightStillPress() throws {
        var random = SplitMix64(seed: 9)
        var trace = Self.session(.light, seed: 9, ordinary: 40, next: 0)
        trace.add(.still(peak: 0.12), random: &random)
        func handedOver(_ configuration: BindingSet, trace: HandTrace) -> ContactDecision? {
            let outputs = TraceReplay.run(trace.trace, configuration: configuration)
            return outputs.compactMap { if case .decision(let decision) = $0 { return decision } else { return nil } }.last
        }
        let learned = try #require(handedOver(try Self.defaults(), trace: trace))
        let today = try #require(handedOver(try Self.defaults(learn: false), trace: trace))
        #expect(ScriptDecision(learned) == .released(.levelledOff))
        #expect(ScriptDecision(today) == .released(.levelledOff))
        #expect(abs(learned.held - today.held) < 0.011)
        #expect(learned.held < 0.3)
    }

    @Test("a contact cut short (its device unplugged mid-press, the bridge stopping) teaches nothing; one lifted does",
          arguments: [ContactPhase.cancel, .end])
    func cutShortTeachesNothing(ending: ContactPhase) throws {
        let pen = InputDevice(id: 3, name: "Generated Pen", kind: .pen, pressure: PressureRange(min: 0, max: 1000))
        var engine = GestureEngine(configuration: try Self.defaults(), devices: [pen])
        // A press on its way to a deep one, at 0.65, when it ends.
        for (time, phase, pressure) in [(0.0, ContactPhase.begin, 100.0), (0.05, .move, 400), (0.1, .move, 650), (0.12, ending, 650)] {
            _ = engine.handle(ContactEvent(time: time, device: 3, contact: 0, phase: phase, position: Point(x: 100, y: 100), pressure: pressure))
        }
        #expect(engine.learning.learner(for: pen)?.ordinaryContacts ?? 0 == (ending == .end ? 1 : 0))
    }

    /// Found in review: a press handed over as a still, light one that the hand then pushed on
    /// to 0.8 was remembered as an ordinary contact of 0.8, and the ordinary level (just above
    /// the hardest ordinary contact) climbed to the threshold's gap, handing more slow presses
    /// over. (Its force at the hand-over is no better: ordinary contacts go on rising a little
    /// after it, and learning from less moved a typical hand's levels.)
    @Test("a contact handed over as levelled off, then pushed on past the threshold, teaches nothing")
    func pushedOnTeachesNothing() throws {
        let pen = InputDevice(id: 3, name: "Generated Pen", kind: .pen, pressure: PressureRange(min: 0, max: 1000))
        var engine = GestureEngine(configuration: try Self.defaults(), devices: [pen])
        var outputs: [EngineOutput] = []
        func event(_ time: Double, _ phase: ContactPhase, _ pressure: Double) {
            outputs += engine.handle(ContactEvent(time: time, device: 3, contact: 0, phase: phase, position: Point(x: 100, y: 100), pressure: pressure))
        }
        event(0, .begin, 150)
        for step in 1...10 { event(Double(step) * 0.01, .move, 150 + Double(step % 2) * 5) }
        outputs += engine.advance(to: 1.2)
        // The stimulus: handed over as a still, light press.
        #expect(outputs.contains { if case .decision(.release(_, .levelledOff, _, _)) = $0 { return true }; return false }, "\(outputs)")
        for step in 1...20 { event(1.2 + Double(step) * 0.01, .move, 150 + 650 * Double(step) / 20) }
        event(1.5, .end, 0)
        let learner = engine.learning.learner(for: pen)
        #expect((learner?.ordinaryContacts ?? 0) + (learner?.deliberatePresses ?? 0) == 0, "\(String(describing: learner))")
    }

    /// One contact at 200 Hz, its samples (x offset, force) from touch-down to the lift, on a
    /// pen whose learner knows 20 ordinary contacts up to 0.28 (threshold 0.68, ordinary 0.34):
    /// what it was handed over as, and the learner after it.
    static func learnedAt200Hz(_ samples: [(dx: Double, force: Double)]) throws -> (reasons: [ReleaseReason], learner: HandLearner) {
        let pen = InputDevice(id: 3, name: "Generated Pen", kind: .pen, pressure: PressureRange(min: 0, max: 1000))
        let learner = try #require(HandLearner(ordinaryPeaks: knownOrdinary, deliberatePeaks: [], ordinaryContacts: 20,
                                               deliberatePresses: 0, levels: PressLevels(threshold: 0.68, release: 0.486, ordinary: 0.34),
                                               moving: false, calibrated: false))
        var engine = GestureEngine(configuration: try Self.defaults(), devices: [pen], learning: PressLearning(devices: [pen.name: learner]))
        var outputs: [EngineOutput] = []
        for (index, sample) in samples.enumerated() {
            outputs += engine.handle(ContactEvent(time: Double(index) / 200, device: 3, contact: 0, phase: index == 0 ? .begin : .move,
                                                  position: Point(x: 100 + sample.dx, y: 100), pressure: sample.force * 1000))
        }
        outputs += engine.handle(ContactEvent(time: Double(samples.count) / 200, device: 3, contact: 0, phase: .end,
                                              position: Point(x: 100 + (samples.last?.dx ?? 0), y: 100), pressure: 0))
        let reasons = outputs.compactMap { if case .decision(.release(_, let reason, _, _)) = $0 { return reason } else { return nil } }
        return (reasons, try #require(engine.learning.learner(for: pen)))
    }

    static let knownOrdinary = (0..<20).map { 0.1 + 0.18 * Double($0) / 19 }

    /// Found in review: at 200 Hz a press let go over some 45 ms is handed over as levelled
    /// off a few samples before it lifts, and was learned as an ordinary contact at its peak:
    /// a light hand's presses at 0.3-0.5 lifted its ordinary level until they could not stand out.
    @Test("a still press held 0.3 s above the ordinary level and eased off before lifting, at 200 Hz, is a deliberate press")
    func easedOffPressFellShort() throws {
        // Up at 0.8 of the range a second, held 0.3 s at 0.38, eased off over 45 ms, lifted.
        let climb = stride(from: 0.05, to: 0.38, by: 0.8 / 200).map { (dx: 0.0, force: $0) }
        let (reasons, learned) = try Self.learnedAt200Hz(climb + Array(repeating: (0, 0.38), count: 60)
                                                          + (1...9).map { (0, 0.38 * (1 - Double($0) / 10)) })
        #expect(reasons == [.levelledOff], "the stimulus: handed over as levelled off before the lift, not at it")
        #expect(learned.deliberatePeaks == [0.38])
        #expect(learned.ordinaryPeaks == Self.knownOrdinary)
    }

    /// Found in review of the rule above: a pen rested a moment before writing goes to the
    /// application as levelled off, and what it pressed after, writing, was learned as a press
    /// that fell short: deliberate, it pulled the threshold down among firm taps.
    @Test("a stroke begun after a 0.3 s rest, pressing to 0.5 as it moves: an ordinary contact, not a deliberate press")
    func strokeAfterARest() throws {
        let rest = Array(repeating: (dx: 0.0, force: 0.15), count: 60)
        let stroke = (1...140).map { (dx: Double($0) * 2, force: Swift.min(0.5, 0.15 + Double($0) * 0.005)) }
        let (reasons, learned) = try Self.learnedAt200Hz(rest + stroke)
        #expect(reasons == [.levelledOff], "the stimulus: handed over as levelled off while it rested")
        #expect(learned.deliberatePeaks.isEmpty)
        #expect(learned.ordinaryPeaks == Self.knownOrdinary + [0.5])
    }

    @Test("learned levels never move while a contact is down: a finger's deep press held keeps them while another finger taps, until both lift")
    func notWhileDown() throws {
        let touch = InputDevice(id: 3, name: "Generated Touch", kind: .touch, pressure: PressureRange(min: 0, max: 255))
        var engine = GestureEngine(configuration: try Self.defaults(), devices: [touch])
        var time = 0.0
        var changes: [LearnedChange] = []
        func tap(_ contact: Int, lift: Bool = true) {
            _ = engine.handle(ContactEvent(time: time, device: 3, contact: contact, phase: .begin, position: Point(x: 100, y: 100), pressure: 10))
            _ = engine.handle(ContactEvent(time: time + 0.02, device: 3, contact: contact, phase: .move, position: Point(x: 100, y: 100), pressure: 25))
            if lift {
                changes += engine.handle(ContactEvent(time: time + 0.05, device: 3, contact: contact, phase: .end, position: Point(x: 100, y: 100), pressure: 0)).compactMap(\.learnedChange)
            }
            // A person's pause between taps: quicker, they would teach as one run (`LearningRule.run`).
            time += 0.6
        }
        // A finger's deep press (contact 9), held down through thirty taps of another: fingers
        // together are the application's, but not beside one a gesture already has.
        _ = engine.handle(ContactEvent(time: time, device: 3, contact: 9, phase: .begin, position: Point(x: 500, y: 500), pressure: 5))
        _ = engine.handle(ContactEvent(time: time + 0.05, device: 3, contact: 9, phase: .move, position: Point(x: 500, y: 500), pressure: 250))
        time += 0.3
        for _ in 0..<30 { tap(1) }
        #expect(changes.isEmpty)
        changes += engine.handle(ContactEvent(time: time, device: 3, contact: 9, phase: .end, position: Point(x: 500, y: 500), pressure: 0)).compactMap(\.learnedChange)
        let change = try #require(changes.first)
        #expect(changes.count == 1)
        // Nineteen contacts' worth of steps at once, and no further than 0.02 each.
        #expect(change.levels.threshold < 0.7 - 0.02 * 10)
        #expect(change.ordinaryContacts == 30)
        #expect(change.deliberatePresses == 1, "the deep press held")
    }

    /// Found in review of a resume: X lets go of a device's buttons as it disables it (a tablet
    /// unplugged, a laptop suspended), which reads as a lift, and a press cut short at 0.55 taught
    /// the learner a deliberate press there: after a few suspends ordinary presses right-click.
    @Test("a firm press cut short by its device going (X's lift, then the removal): no lesson; lifted by the hand, it is one, once the device stays or presses again",
          arguments: [false, true])
    func cutShortByRemovalTeachesNothing(pressedAgain: Bool) throws {
        func script() throws -> GestureScript {
            let script = GestureScript(configuration: try Self.defaults())
            script.setLessonGrace(0.3)
            for step in 0..<13 {
                script.pen.down(at: (300 + Double(step) * 20, 500), force: 0.1)
                script.pen.aFrameLater().move(to: (300 + Double(step) * 20, 500), force: 0.15)
                script.pen.aFrameLater().lift()
                script.clock.advance(by: 0.4)
            }
            script.pen.down(at: (500, 300), force: 0.2)
            script.pen.aFrameLater().move(to: (500, 300), force: 0.4)
            script.pen.aFrameLater().move(to: (500, 300), force: 0.55)
            script.clock.advance(by: 0.6)
            script.pen.lift()
            return script
        }
        func learner(_ script: GestureScript) -> HandLearner? {
            script.engine.learning.devices[GestureScript.penDevice.learningKey]
        }
        let cut = try script()
        do {
            cut.clock.advance(by: 0.01)
            cut.unplug(GestureScript.penDevice)
            _ = cut.plug(GestureScript.penDevice)
            cut.clock.advance(by: 1)
            #expect(learner(cut)?.deliberatePresses == 0 && learner(cut)?.ordinaryContacts == 13, "\(String(describing: learner(cut)))")
            #expect(cut.outputs.allSatisfy { if case .learned(let change) = $0 { change.learner.deliberatePresses == 0 } else { true } })
        }
        let lifted = try script()
        if pressedAgain {
            lifted.clock.advance(by: 0.1)
            lifted.pen.down(at: (600, 300), force: 0.1)
        } else {
            lifted.clock.advance(by: 0.3)
        }
        #expect(learner(lifted)?.deliberatePresses == 1, "\(String(describing: learner(lifted)))")
    }
}
