/// One binding's recognizer watching one contact.
struct RecognizerSlot: Sendable {
    let binding: Binding
    var recognizer: any GestureRecognizer
    /// False once the recognizer reported a final state or lost the contact.
    var active = true
    var began = false
    /// A discrete gesture (squeeze, long-press) recognized, with `on-end` actions: they fire
    /// when the contact that made it ends, as a continuous gesture's do when it ends.
    var endsWithContact = false
    /// Knob degrees or force carried toward the next step action.
    var carried = 0.0
    /// The way the last step went (+1 up or clockwise, -1 down, 0 none yet): a step back the
    /// other way carries half a step more (`GestureEngine.step`).
    var lastStep = 0
    /// Where the contact went down: a knob's step actions act there.
    let origin: Point
    /// The desktop's scale there, kept until the contact ends (`init`).
    let scale: Double
    var lastForce: Double?
    /// The last progress fraction shown for `ring` feedback, so unchanged values are not resent.
    var shownProgress: Double?

    /// The force an ordinary touch reaches, for a pressure gesture (`HoldPolicy`); nil for others.
    let ordinaryForce: Double?

    /// `scale`: the desktop's scale where the contact went down (`DesktopScale`), which the
    /// binding's pixel distances are multiplied by; the slot keeps it until the contact ends.
    init(binding: Binding, screen: ScreenSize, monitors: MonitorLayout, area: MappedArea? = nil, scale: Double = 1,
         learned: PressLevels? = nil, origin: Point) {
        self.origin = origin
        self.scale = scale
        var binding = binding
        if case .deepPress(let configuration) = binding.recognizer, configuration.learned {
            learns = true
            if let learned { binding.recognizer = .deepPress(configuration.at(learned)) }
        } else {
            learns = false
        }
        self.binding = binding
        self.recognizer = binding.recognizer.makeRecognizer(screen: screen, monitors: monitors, area: area, scale: scale)
        owns = binding.ownsContact
        switch binding.recognizer {
        case .deepPress(let configuration): ordinaryForce = configuration.ordinary
        case .squeeze(let configuration): ordinaryForce = configuration.ordinary
        case .force, .pressureThresholds, .knob, .longPress: ordinaryForce = nil
        }
    }

    /// Stored, not read from the binding: the hold asks on every sample of a held contact.
    let owns: Bool
    /// A deep press with `threshold: learned`: what becomes of the contact teaches the device's learner.
    let learns: Bool

    /// A pressure gesture that holds the contact while its force may still reach the
    /// threshold (`HoldPolicy`), with the force an ordinary touch reaches.
    var followsForce: Bool { active && owns && ordinaryForce != nil }
}

/// Where a contact stands with the applications: the one thing the engine decides about it.
enum ContactHold: Sendable {
    /// Held back while its owning gestures decide; with the force's recent course while a
    /// pressure gesture follows it (`HoldPolicy`), nil otherwise.
    case undecided(ForceTrend?)
    /// Held back as a hand resting where a pen writes (a palm, `PalmRule`): no gesture may
    /// win it; it goes to the applications at the decision timeout, at its end, once it moves
    /// farther than `slop` pixels from `origin` (a finger's scroll, not a palm), or with the
    /// pen's stroke or tap when that becomes theirs, whichever comes first.
    case resting(origin: Point, slop: Double)
    /// Won by the owning gesture `gesture`; `learning`: a learning deep press, so the contact
    /// teaches the device's learner a deliberate press.
    case claimed(gesture: String, learning: Bool)
    /// Given to the applications, and why.
    case handedOver(ReleaseReason)

    /// For a bug line: the state without the trend's samples.
    var summary: String {
        switch self {
        case .undecided: "undecided"
        case .resting: "resting near the pen"
        case .claimed(let gesture, _): "claimed by \(gesture)"
        case .handedOver(let reason): "handed over (\(reason.code))"
        }
    }
}

/// Everything the engine knows about one contact while it is down.
struct TrackedContact: Sendable {
    let key: ContactKey
    let device: InputDevice
    /// When the contact went down: decisions say how long it was held since.
    let start: Double
    var slots: [RecognizerSlot]
    /// Held, resting, claimed or handed over. Only the engine's `decide`, `rest` and
    /// `stopFollowingForce` change it, each with the timers that go with it.
    private(set) var hold: ContactHold = .undecided(nil)

    /// The actions and pulses of its watching gestures (`owns-contact: false`) while it is held back
    /// (undecided or resting), in order: they go to the applications after the press they
    /// belong to once it is handed over, at that moment, and never once a gesture claims it or
    /// it is found a palm's (`GestureEngine.decide`). Found in review: a pressure-thresholds binding beside
    /// the deep press sent its stage keys before the right-click and their way back after it,
    /// into the menu the right-click opened (a brush grew with every right-click).
    var heldActions: [EngineOutput] = []

    var hasActiveOwner: Bool { slots.contains { $0.active && $0.owns } }

    var isDecided: Bool {
        switch hold {
        case .undecided, .resting: false
        case .claimed, .handedOver: true
        }
    }

    /// Whether it is held back as a palm (`ContactHold.resting`).
    var isResting: Bool {
        if case .resting = hold { true } else { false }
    }

    /// A pen's or eraser's press the application has, the tip still down (given to it for any
    /// reason but its lift): a stroke under way in the application.
    var isPenStrokeOfTheApplication: Bool {
        guard device.kind.isPen, case .handedOver(let reason) = hold else { return false }
        return reason != .ended
    }

    /// Whether a gesture won it.
    var isClaimed: Bool {
        if case .claimed = hold { true } else { false }
    }

    var isFollowingForce: Bool {
        if case .undecided(.some) = hold { true } else { false }
    }

    /// Whether the held contact's force has said anything since touch-down.
    var forceHasSpoken: Bool {
        if case .undecided(let trend?) = hold { trend.hasEvidence } else { false }
    }

    /// Where the contact was last seen, and its force (0...1; nil for a device without pressure).
    private(set) var position: Point
    private(set) var force: Double?
    /// The hardest the contact has pressed so far: what learning remembers of it.
    private(set) var peak: Double?

    init(key: ContactKey, device: InputDevice, slots: [RecognizerSlot], start sample: ContactSample) {
        self.key = key
        self.device = device
        self.slots = slots
        start = sample.time
        position = sample.position
        force = sample.force
        peak = sample.force
    }

    mutating func saw(_ sample: ContactSample) {
        position = sample.position
        force = sample.force
        if let force = sample.force, force > peak ?? -1 { peak = force }
    }

    /// Whether a learning deep press listened to the contact when it began.
    var learns: Bool { slots.contains { $0.learns } }

    /// The levels of the learning deep press that listened, as it began with them: the
    /// device's learned ones, or its binding's own until something is learned (a config's
    /// `release` or `ordinary` beside `threshold: learned`).
    var learningLevels: PressLevels? {
        for slot in slots where slot.learns {
            if case .deepPress(let configuration) = slot.binding.recognizer {
                return PressLevels(threshold: configuration.threshold, release: configuration.release,
                                   ordinary: configuration.ordinary)
            }
        }
        return nil
    }

    private var learningThreshold: Double? { learningLevels?.threshold }

    /// What the contact teaches its device's learner, once it is over (lifted at `end`); nil
    /// when nothing: no learning deep press listened, it never said a force, another gesture
    /// won it, or it is still undecided.
    func evidence(endedAt end: Double) -> PressEvidence? {
        guard let peak, learns else { return nil }
        let ordinary = slots.first { $0.learns }?.ordinaryForce ?? 0
        switch hold {
        case .undecided, .resting, .claimed(_, learning: false):
            return nil
        case .claimed(_, learning: true):
            // Reached the threshold and lifted within a tap's time: perhaps a heavy hand's tap.
            if let decided, decided.time - start <= LearningRule.quick, end - start <= LearningRule.attempt {
                return .quick(peak: peak)
            }
            return .deliberate(peak: peak)
        case .handedOver(.limit):
            // Held above the ordinary level to the limit: a press meant, that fell short.
            return peak > ordinary ? .deliberate(peak: peak) : .ordinary(peak: peak)
        case .handedOver(.ended):
            // Lifted still and held, above the ordinary level and longer than a tap lasts:
            // perhaps a press meant that fell short. Counted ordinary, such presses would lift
            // the threshold further out of a light hand's reach; the learner tells (`fellShort`).
            if let threshold = learningThreshold, peak >= threshold { return nil }
            return peak > ordinary && end - start >= LearningRule.attempt ? .fellShort(peak: peak) : .ordinary(peak: peak)
        case .handedOver(.levelledOff):
            // Eased off just before the lift (handed over some 5-15 ms before it at 200 Hz), it
            // is the same press as one lifted still, judged by what it did until then. Handed
            // over earlier, what came after is the application's (a stroke begun after a rest):
            // an ordinary contact, one held still (the learner leaves such contacts out of the
            // ordinary level while they stand well above the hand's taps and strokes).
            if let threshold = learningThreshold, peak >= threshold { return nil }
            if let decided, end - decided.time <= LearningRule.easedOff, decided.peak > ordinary,
               decided.time - start >= LearningRule.attempt {
                return .fellShort(peak: decided.peak)
            }
            return .heldStill(peak: peak)
        case .handedOver(.failed), .handedOver(.timeout):
            // Pressed on to a deep press's force after it was given to the application (a deep
            // press the bridge gave up waiting for, pushed on; a hard stroke): no ordinary
            // contact, and no deep press the bridge saw.
            if let threshold = learningThreshold, peak >= threshold { return nil }
            return .ordinary(peak: peak)
        case .handedOver(.unbound), .handedOver(.anotherButton), .handedOver(.anotherFinger), .handedOver(.penDown),
             .handedOver(.penNear):
            return nil
        }
    }

    /// When the contact was decided, and the hardest it had pressed by then.
    private(set) var decided: (time: Double, peak: Double)?

    /// Sets the decision; the engine's `decide` is the one caller.
    mutating func settle(_ decision: ContactHold, at time: Double) {
        hold = decision
        if case .undecided = decision { return }
        decided = (time, peak ?? 0)
    }

    /// Held back as a palm from now on, its force no longer followed, until it moves farther
    /// than `slop` from where it went down; the engine's `rest` is the one caller, with the
    /// timers.
    mutating func rest(slop: Double) {
        if case .undecided = hold { hold = .resting(origin: origin, slop: slop) }
    }

    /// Whether a palm has moved farther than its slop: a finger's scroll or drag.
    var restingMovedAway: Bool {
        guard case .resting(let origin, let slop) = hold else { return false }
        return position.distance(to: origin) > slop
    }

    /// Where the contact went down.
    var origin: Point { slots.first?.origin ?? position }

    /// A pressure gesture follows the undecided contact's force from now on.
    mutating func startFollowingForce(_ trend: ForceTrend) {
        if case .undecided = hold { hold = .undecided(trend) }
    }

    mutating func stopFollowingForce() {
        if case .undecided(.some) = hold { hold = .undecided(nil) }
    }

    mutating func addForce(_ force: Double, at time: Double) {
        updateTrend { $0.add(time: time, force: force) }
    }

    /// The hold timer went off: it is no longer set.
    mutating func holdTimerFired() {
        updateTrend { $0.nextCheck = nil }
    }

    /// The hold's step at `time` (`ForceTrend.follow`); nil when the force is not followed.
    mutating func followForce(at time: Double, ordinary: Double) -> ForceTrend.Step? {
        updateTrend { $0.follow(at: time, ordinary: ordinary) }
    }

    /// Changes the followed trend in place: taken out of `hold` first, so that its samples are
    /// not copied on every change.
    private mutating func updateTrend<Result>(_ change: (inout ForceTrend) -> Result) -> Result? {
        guard case .undecided(var trend?) = hold else { return nil }
        hold = .undecided(nil)
        defer { hold = .undecided(trend) }
        return change(&trend)
    }

    /// The lowest `ordinary` of the pressure gestures still holding the contact; nil when none
    /// is. Asked on every sample of a held contact: a loop, not a filtered copy of the slots.
    var ordinaryForce: Double? {
        var lowest: Double?
        for index in slots.indices where slots[index].active && slots[index].owns {
            if let ordinary = slots[index].ordinaryForce { lowest = Swift.min(lowest ?? ordinary, ordinary) }
        }
        return lowest
    }
}

/// What a timer in the engine's queue is for.
enum EngineTimer: Hashable, Sendable {
    case recognizer(ContactKey, slot: Int)
    case decision(ContactKey)
    /// The force-following hold's next look at a contact whose samples stopped, or its limit.
    case hold(ContactKey)

    var contact: ContactKey {
        switch self {
        case .recognizer(let key, _): return key
        case .decision(let key): return key
        case .hold(let key): return key
        }
    }
}
