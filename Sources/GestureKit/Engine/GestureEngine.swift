import Glibc
/// Runs the bound recognizers over contacts and turns their reports into actions, feedback
/// and ownership decisions. Live and replay drive the same engine; only the ends differ.
///
/// Time comes in with the events. Timers (long press, the decision timeout) sit in the
/// engine's `TimerQueue`; the driver asks for `nextDeadline` and calls `advance(to:)`.
public struct GestureEngine: Sendable {
    public private(set) var configuration: BindingSet
    public var screen: ScreenSize
    /// The screen's monitors, for knobs centered on one; none: knobs use the root's corners.
    public var monitors: MonitorLayout
    /// The desktop's scale (`DesktopScale`): the bindings' pixel distances (slop, a knob's
    /// center and radii) are pixels at scale 1, multiplied by the scale where a contact goes
    /// down. A contact keeps the scale it began with; a change applies to contacts from then on.
    /// `.unscaled` (a trace replayed): the config's pixels are the screen's.
    public var scale: DesktopScale
    /// The devices as the engine uses them: as added, but for one whose declared pressure was
    /// found never to move (`PressureLiveness`), which is used without its pressure.
    public private(set) var devices: [Int: InputDevice] = [:]
    /// The devices as added (`addDevice`), pressure and all.
    private var declaredDevices: [Int: InputDevice] = [:]
    /// Which devices' declared pressure has never moved (the fallback when a driver does not
    /// say what its axis is), followed here so that the live bridge and a replay agree.
    private var pressureLiveness = PressureLiveness()
    private var contacts: [ContactKey: TrackedContact] = [:]
    /// When and where each pen or eraser was last heard hovering above the screen (`PalmRule`).
    private var pensHovering: [Int: (time: Double, position: Point)] = [:]
    private var timers = TimerQueue<EngineTimer>()
    /// Every device's learned deep-press levels and what they were learned from, by device
    /// (`LearningKey`, `HandLearner`); changes come out as `.learned` outputs.
    public private(set) var learning: PressLearning
    /// How long after a contact lifted it waits to teach its device's learner (0: at once, as
    /// a replay does). X lets go of a device's buttons and touches as it disables or removes it
    /// (a tablet unplugged, a laptop suspended), which reads as a lift: a press cut short so
    /// taught the learner a deliberate press at the force it had reached, and ordinary presses
    /// right-clicked after a few suspends. Found in review. The device's removal comes right
    /// behind such a lift (`removeDevice` drops its lesson); a new contact of it, or the time
    /// passing, says it stayed.
    public var lessonGrace = 0.0
    private var pendingLessons: [PendingLesson] = []

    public init(configuration: BindingSet, devices: [InputDevice] = [], screen: ScreenSize = .fallback,
                monitors: MonitorLayout = .none, scale: DesktopScale = .unscaled, learning: PressLearning = PressLearning()) {
        self.configuration = configuration
        self.screen = screen
        self.monitors = monitors
        self.scale = scale
        self.learning = learning
        for device in devices { addDevice(device) }
    }

    /// The earliest time at which `advance(to:)` has something to do.
    public var nextDeadline: Double? {
        guard let lesson = pendingLessons.first?.due else { return timers.nextDeadline }
        return Swift.min(lesson, timers.nextDeadline ?? lesson)
    }

    /// Contacts currently down.
    public var activeContacts: [ContactKey] { contacts.keys.sorted() }

    /// Contacts currently down, where each was last seen and how hard it pressed: the touch
    /// view draws these. The engine is the one place a contact's state lives while it is down.
    public var contactsDown: [ActiveContact] {
        contacts.values.map { ActiveContact(key: $0.key, position: $0.position, force: $0.force) }.sorted { $0.key < $1.key }
    }

    /// Whether samples read a few milliseconds late would change nothing a person notices:
    /// some contact is down, and every one is decided and followed only by knobs, whose steps
    /// (a scroll, a volume key) land a few milliseconds later. Any contact still undecided (a
    /// press held back from the application) or watched by another gesture (a deep press's
    /// moment, a threshold's crossing) wants every sample as it comes.
    public var acceptsLateInput: Bool {
        !contacts.isEmpty && contacts.values.allSatisfy { contact in
            contact.isDecided && contact.slots.allSatisfy { !$0.active || $0.binding.recognizer.kind == .knob }
        }
    }

    /// Whether `key` is down and every gesture on it has ended or given up (a drag no deep
    /// press can become any more, or a contact no binding listens to): until it lifts, its
    /// samples change nothing.
    public func isSettled(_ key: ContactKey) -> Bool {
        contacts[key].map { contact in !contact.slots.contains { $0.active } } ?? false
    }

    /// The buttons the gestures of contacts still down can yet let go of (a release or a click
    /// their bindings may still fire, at the contact's end too): a contact keeps the bindings it
    /// began with across a reload, so these may be buttons the configuration no longer releases.
    public var buttonsReleasableByContactsDown: Set<Int> {
        contacts.values.reduce(into: []) { buttons, contact in
            for slot in contact.slots where slot.active || slot.endsWithContact {
                buttons.formUnion(slot.binding.releasedButtons)
            }
        }
    }

    // MARK: Devices and configuration

    /// A device new or changed, or mapped elsewhere. One whose declaration changed (its
    /// pressure axis, its kind, its name) is watched afresh for pressure that never moves; one
    /// only mapped elsewhere keeps what was found.
    public mutating func addDevice(_ device: InputDevice) {
        if let previous = declaredDevices[device.id], !device.isDeclared(like: previous) {
            pressureLiveness.remove(device.id)
        }
        declaredDevices[device.id] = device
        devices[device.id] = inUse(device)
    }

    /// `device` as the engine uses it: without its pressure while that is found dead.
    private func inUse(_ device: InputDevice) -> InputDevice {
        guard pressureLiveness.isDead(device.id) else { return device }
        var withoutPressure = device
        withoutPressure.pressure = nil
        return withoutPressure
    }

    /// Forgets a device; its contacts are cancelled. `disabled`: it is still there, switched
    /// off (a VT switched away from, `xinput disable`), and what was found of its pressure holds
    /// when it is enabled again declared as it was; a device unplugged is watched afresh.
    public mutating func removeDevice(_ id: Int, disabled: Bool = false, at time: Double, into outputs: inout [EngineOutput]) {
        // Its last lift may be X letting go of it as it went.
        pendingLessons.removeAll { $0.deviceID == id }
        for key in contacts.keys.sorted() where key.device == id {
            guard let position = contacts[key]?.position else { continue }
            handle(ContactEvent(time: time, device: id, contact: key.contact, phase: .cancel, position: position),
                   into: &outputs)
        }
        devices[id] = nil
        if !disabled {
            declaredDevices[id] = nil
            pressureLiveness.remove(id)
        }
        pensHovering[id] = nil
    }

    /// Forgets what was learned for `device` (every device when nil): its deep presses start
    /// again from their configured levels. Contacts already down keep theirs.
    public mutating func resetLearning(device: String? = nil) {
        pendingLessons.removeAll { lesson in device.map { lesson.device.learningKey == $0 } ?? true }
        if let device { learning.devices[device] = nil } else { learning.devices.removeAll() }
    }

    /// Teaches the learners every lesson still waiting out `lessonGrace`: the bridge stops.
    public mutating func learnPending(into outputs: inout [EngineOutput]) {
        learnPending(where: { _ in true }, into: &outputs)
    }

    /// Teaches the waiting lessons that `chosen` picks, in the order they came.
    private mutating func learnPending(where chosen: (PendingLesson) -> Bool, into outputs: inout [EngineOutput]) {
        let lessons = pendingLessons.filter(chosen)
        guard !lessons.isEmpty else { return }
        pendingLessons.removeAll(where: chosen)
        for lesson in lessons { learn(lesson, into: &outputs) }
    }

    /// New bindings apply to contacts that begin from now on; contacts already down finish
    /// with the bindings they began with.
    public mutating func replaceConfiguration(_ configuration: BindingSet) {
        self.configuration = configuration
    }

    // MARK: Input

    /// Handles one event, first firing any timers due by its time. Returns the device's
    /// pressure found dead or alive again by it (`PressureLiveness`): from the device's next
    /// contact on, the engine uses it so (the contact that showed it goes on as it began).
    @discardableResult
    public mutating func handle(_ event: ContactEvent, into outputs: inout [EngineOutput]) -> PressureLiveness.Change? {
        handle(event, handedOver: nil, into: &outputs)
    }

    /// Handles a contact's begin that is the application's from the start (`reason`: X gave its
    /// press to the application, `ReleaseReason.anotherButton`): its owning gestures never see
    /// it, watching ones do. Any other event is handled as ever.
    @discardableResult
    public mutating func handle(_ event: ContactEvent, handedOverAtBegin reason: ReleaseReason,
                                into outputs: inout [EngineOutput]) -> PressureLiveness.Change? {
        handle(event, handedOver: reason, into: &outputs)
    }

    private mutating func handle(_ event: ContactEvent, handedOver reason: ReleaseReason?,
                                 into outputs: inout [EngineOutput]) -> PressureLiveness.Change? {
        // A pen hovering says nothing of its tip's pressure (libinput's hover can carry the
        // pressure the tip last had).
        let change = event.phase == .hover ? nil
            : pressureLiveness.observe(event) { [declaredDevices] in declaredDevices[event.device]?.pressure }
        follow(event, handedOver: reason, into: &outputs)
        switch change {
        case .dead(let id)?, .alive(let id)?:
            if let device = declaredDevices[id] { devices[id] = inUse(device) }
        case nil:
            break
        }
        return change
    }

    private mutating func follow(_ event: ContactEvent, handedOver reason: ReleaseReason?, into outputs: inout [EngineOutput]) {
        if let next = nextDeadline, next <= event.time {
            advance(to: event.time, into: &outputs)
        }
        guard let device = devices[event.device] else {
            outputs.append(.bug("event for unknown device \(event.device)"))
            return
        }
        let key = ContactKey(device: event.device, contact: event.contact)
        let sample = ContactSample(time: event.time, position: event.position,
                                   force: event.pressure.flatMap { device.pressure?.normalize($0) })
        switch event.phase {
        case .hover:
            if device.kind.isPen { penHovers(event.device, at: event.time, over: event.position, into: &outputs) }
        case .begin:
            if contacts[key] != nil {
                outputs.append(.bug("contact \(key.contact) of device \(key.device) began twice; cancelling the first"))
                // The first contact ends where it was last seen: its on-end actions (a button
                // release) belong there, not where the new contact goes down.
                let stale = ContactSample(time: event.time, position: contacts[key]?.position ?? event.position, force: nil)
                feed(.cancel(stale), to: key, into: &outputs)
                finish(key, at: event.time, learning: false, into: &outputs)
            }
            begin(key, device: device, window: event.window, sample: sample, handedOver: reason, into: &outputs)
        case .move:
            guard contacts[key] != nil else {
                outputs.append(.bug("move for contact \(key.contact) of device \(key.device), which is not down"))
                return
            }
            contacts[key]?.saw(sample)
            feed(.move(sample), to: key, into: &outputs)
        case .end, .cancel:
            guard contacts[key] != nil else {
                outputs.append(.bug("\(event.phase.rawValue) for contact \(key.contact) of device \(key.device), which is not down"))
                return
            }
            feed(event.phase == .end ? .up(sample) : .cancel(sample), to: key, into: &outputs)
            // A contact cut short (its device gone, the bridge stopping, X taking the touch back)
            // says nothing of how the hand presses: only a lifted one teaches the learner.
            finish(key, at: event.time, lastSeen: event.position, learning: event.phase == .end, into: &outputs)
        }
    }

    /// Convenience for callers that want the outputs of one event.
    public mutating func handle(_ event: ContactEvent) -> [EngineOutput] {
        var outputs: [EngineOutput] = []
        handle(event, into: &outputs)
        return outputs
    }

    /// Fires every timer due at or before `time`, in deadline order.
    public mutating func advance(to time: Double, into outputs: inout [EngineOutput]) {
        while let lesson = pendingLessons.first, lesson.due <= time {
            pendingLessons.removeFirst()
            learn(lesson, into: &outputs)
        }
        while let (deadline, timer) = timers.popDue(at: time) {
            switch timer {
            case .recognizer(let key, let slot):
                feed(.timeout(at: deadline), to: key, onlySlot: slot, into: &outputs)
            case .decision(let key):
                decisionTimedOut(key, at: deadline, into: &outputs)
            case .hold(let key):
                guard var contact = contacts.removeValue(forKey: key) else { break }
                contact.holdTimerFired()
                followForce(&contact, at: deadline, into: &outputs)
                contacts[key] = contact
            }
        }
    }

    public mutating func advance(to time: Double) -> [EngineOutput] {
        var outputs: [EngineOutput] = []
        advance(to: time, into: &outputs)
        return outputs
    }

    // MARK: Contacts

    private mutating func begin(_ key: ContactKey, device: InputDevice, window: WindowClass?, sample: ContactSample,
                                handedOver reason: ReleaseReason? = nil, into outputs: inout [EngineOutput]) {
        // The device is still here: its lessons waiting are taught before this contact reads
        // its levels.
        learnPending(where: { $0.deviceID == key.device }, into: &outputs)
        var reason = reason
        // A hand resting where a hovering pen writes (`PalmRule`): its fingers together are one
        // palm, held back with no gesture, not fingers for the application at once.
        let nearPen = device.kind == .touch && reason == nil && isPenHovering(over: device, at: sample.time)
        if device.kind == .touch, !nearPen, reason == nil || reason == .anotherFinger {
            // Fingers together are the application's (a pinch, a two-finger scroll, a resting
            // hand), unless one is already a gesture's (a deep press under way): those held are
            // handed to it first, in the order they touched, so it gets each whole and in
            // order, and then this one.
            if handOverHeldTouches(where: { $0.key.device == key.device && !$0.isClaimed }, reason: .anotherFinger,
                                   at: sample.time, into: &outputs) {
                reason = .anotherFinger
            }
        }
        if device.kind == .touch, reason == nil, contacts.values.contains(where: { $0.isPenStrokeOfTheApplication }) {
            // A touch while the application has the pen's stroke is a hand resting on the
            // screen as it writes (a palm): a right-click under it would land mid-stroke, the
            // pointer jumping there with the pen's button down. The application's, as without
            // the bridge. (While the bridge still holds the pen's press back, a touch is held
            // too, and waits behind it: `PointerOwnership`.)
            reason = .penDown
        }
        let resting = nearPen && reason == nil
        // Learned levels are read when a contact begins and kept until it ends: they never
        // move under a contact that is down.
        let learned = configuration.learn ? learning.learner(for: device, among: devices.values).flatMap { $0.calibrated ? nil : $0.levels } : nil
        // As the feedback drawn there: the scale where the contact goes down, kept until it ends.
        let factor = scale.factor(at: sample.position, monitors: monitors)
        let slots = configuration.bindings(for: device, in: window).map {
            RecognizerSlot(binding: $0, screen: screen, monitors: monitors, area: device.mappedArea, scale: factor,
                           learned: learned, origin: sample.position)
        }
        var contact = TrackedContact(key: key, device: device, slots: slots, start: sample)
        if !contact.hasActiveOwner {
            decide(&contact, .handedOver(.unbound), at: sample.time, into: &outputs)
        } else {
            timers.set(.decision(key), deadline: sample.time + configuration.decisionTimeout)
            if contact.ordinaryForce != nil, let force = sample.force {
                var trend = ForceTrend(start: sample.time, force: force, limit: configuration.holdLimit)
                trend.nextCheck = sample.time + HoldPolicy.window
                timers.set(.hold(key), deadline: trend.nextCheck)
                contact.startFollowingForce(trend)
            }
        }
        contacts[key] = contact
        // Decided before its first sample reaches a gesture: a knob or a deep press that would
        // claim it at once must not act on a press the application has.
        if let reason {
            handOver(key, reason: reason, at: sample.time, into: &outputs)
        } else if resting {
            rest(key, at: sample.time, into: &outputs)
        }
        feed(.down(sample), to: key, into: &outputs)
    }

    private mutating func finish(_ key: ContactKey, at time: Double, lastSeen: Point? = nil, learning learns: Bool,
                                 into outputs: inout [EngineOutput]) {
        var evidence: PressEvidence?
        var device: InputDevice?
        var levels: PressLevels?
        var start = time
        if var contact = contacts[key] {
            if !contact.isDecided {
                decide(&contact, .handedOver(contact.isResting ? .penNear : .ended), at: time, into: &outputs)
            }
            if contact.slots.contains(where: { $0.shownProgress != nil }) {
                outputs.append(.feedback(.progressEnded(key)))
            }
            // A discrete gesture's `on-end` (a long press's `{release: 1}` after its
            // `{press: 1}`): where the contact lifted, or was last seen.
            for slot in contact.slots where slot.endsWithContact {
                for action in slot.binding.onEnd {
                    outputs.append(.action(ActionEvent(time: time, gesture: slot.binding.name, contact: key,
                                                       action: action, position: lastSeen ?? contact.position)))
                }
            }
            evidence = contact.evidence(endedAt: time)
            device = contact.device
            levels = contact.learningLevels
            start = Swift.min(contact.start, time)
        }
        contacts[key] = nil
        timers.removeAll { $0.contact == key }
        if configuration.learn, learns, let evidence, let device, let levels {
            let lesson = PendingLesson(evidence: evidence, device: device, deviceID: key.device, levels: levels, span: start...time,
                                       due: time + lessonGrace)
            if lessonGrace > 0 { pendingLessons.append(lesson) } else { learn(lesson, into: &outputs) }
        }
    }

    private mutating func learn(_ lesson: PendingLesson, into outputs: inout [EngineOutput]) {
        learn(lesson.evidence, device: lesson.device, deviceID: lesson.deviceID, levels: lesson.levels, span: lesson.span,
              at: lesson.span.upperBound, into: &outputs)
    }

    /// Teaches a device's learner one finished contact, and lets its levels move once none of
    /// its contacts is down (a touchscreen's other fingers may still be). `levels`: those the
    /// contact's learning deep press used, which a change reports as its `previous`.
    private mutating func learn(_ evidence: PressEvidence, device: InputDevice, deviceID: Int, levels: PressLevels,
                                span: ClosedRange<Double>, at time: Double, into outputs: inout [EngineOutput]) {
        var learner = learning.learner(for: device, among: devices.values) ?? HandLearner()
        guard !learner.calibrated else { return }
        learner.record(evidence, span: span)
        if !contacts.keys.contains(where: { $0.device == deviceID }), learner.settle() {
            outputs.append(.learned(LearnedChange(time: time, device: device.name, key: device.learningKey, previous: levels,
                                                  levels: learner.effectiveLevels(start: levels), learner: learner)))
        }
        learning.devices[device.learningKey] = learner
        // A device without ids learning under its name: the state there is its own from now on.
        if device.product == nil { learning.keptBeforeIDs.remove(device.name) }
    }

    /// Hands an undecided contact to the application at once, whatever its gestures would have
    /// decided: its owning gestures fail, watching ones go on. For what the engine cannot see
    /// and the X side can (`ReleaseReason.anotherButton`); nothing for a decided contact.
    public mutating func handOver(_ key: ContactKey, reason: ReleaseReason, at time: Double, into outputs: inout [EngineOutput]) {
        guard var contact = contacts[key], !contact.isDecided else { return }
        let position = contact.position
        for index in contact.slots.indices where contact.slots[index].active && contact.slots[index].owns {
            drop(&contact.slots[index], key: key, slotIndex: index, at: time, position: position, into: &outputs)
        }
        stopFollowingForce(&contact)
        if contact.isResting {
            decide(&contact, .handedOver(reason), at: time, into: &outputs)
        } else {
            settleIfUnowned(&contact, reason: reason, at: time, into: &outputs)
        }
        contacts[key] = contact
    }

    /// Hands a contact to the application as `handOver` does, a claimed one too, whose claim
    /// nothing acted on: another program's grab had its press or touch before the claim could
    /// reach the server (a press landing past its threshold under a screen locker; the bridge
    /// acts on what a contact says only once its press is known to be its own). The claim is
    /// taken back: its gesture ends without its end's actions, the contact teaches no learner,
    /// and a release says where it went.
    public mutating func takeBack(_ key: ContactKey, reason: ReleaseReason, at time: Double, into outputs: inout [EngineOutput]) {
        guard var contact = contacts[key], contact.isClaimed else {
            handOver(key, reason: reason, at: time, into: &outputs)
            return
        }
        let position = contact.position
        for index in contact.slots.indices where contact.slots[index].owns {
            contact.slots[index].endsWithContact = false
            if contact.slots[index].active {
                drop(&contact.slots[index], key: key, slotIndex: index, at: time, position: position, into: &outputs)
            }
        }
        decide(&contact, .handedOver(reason), at: time, takingBack: true, into: &outputs)
        contacts[key] = contact
    }

    // MARK: Palms

    /// Whether a pen hovers over the part of the screen `touchscreen` reaches at `time`, none
    /// down (`PalmRule`): one was heard hovering there within `PalmRule.hoverGap`. (A pen down
    /// has rules of its own: `begin`. A pen over another monitor is another hand's.)
    private func isPenHovering(over touchscreen: InputDevice, at time: Double) -> Bool {
        !contacts.values.contains { $0.device.kind.isPen }
            && pensHovering.values.contains { time - $0.time <= PalmRule.hoverGap && reaches(touchscreen, $0.position) }
    }

    /// Whether `point` is on the part of the screen `device` is mapped to (all of it, unmapped).
    private func reaches(_ device: InputDevice, _ point: Point) -> Bool {
        guard let area = device.mappedArea else { return true }
        let frame = area.frame(on: screen)
        return point.x >= Double(frame.x) - 1 && point.x <= Double(frame.x + frame.width) + 1
            && point.y >= Double(frame.y) - 1 && point.y <= Double(frame.y + frame.height) + 1
    }

    /// A pen hovers at `position`: touches held back for their gestures on a touchscreen that
    /// reaches there are a hand resting where it writes, held with no gesture from now on.
    private mutating func penHovers(_ pen: Int, at time: Double, over position: Point, into outputs: inout [EngineOutput]) {
        pensHovering[pen] = (time, position)
        // Asked at every hovering sample: a look at the few contacts down, nothing copied.
        let resting = { (contact: TrackedContact) in Self.isTouchHeldForGestures(contact) && self.reaches(contact.device, position) }
        guard contacts.values.contains(where: resting) else { return }
        let held = contacts.values.filter(resting).sorted { ($0.start, $0.key) < ($1.start, $1.key) }
        for contact in held { rest(contact.key, at: time, into: &outputs) }
    }

    /// A touch held back while its gestures decide (not yet a palm's).
    private static func isTouchHeldForGestures(_ contact: TrackedContact) -> Bool {
        contact.device.kind == .touch && !contact.isDecided && !contact.isResting
    }

    /// Holds an undecided touch back as a palm (`ContactHold.resting`): its owning gestures
    /// fail; the watching ones go on, their actions held: none come from a palm, and they
    /// follow a finger's scroll (one that moves past its slop); it goes to the applications
    /// once its decision timeout has passed (at once, if it has), when it moves past its slop,
    /// or when it ends.
    private mutating func rest(_ key: ContactKey, at time: Double, into outputs: inout [EngineOutput]) {
        guard var contact = contacts[key], !contact.isDecided, !contact.isResting else { return }
        let position = contact.position
        for index in contact.slots.indices where contact.slots[index].active && contact.slots[index].owns {
            drop(&contact.slots[index], key: key, slotIndex: index, at: time, position: position, into: &outputs)
        }
        stopFollowingForce(&contact)
        // As far as its gestures let it move before giving up on it: farther, it is a finger's
        // scroll or drag, the application's at once.
        let factor = scale.factor(at: contact.origin, monitors: monitors)
        let slop = contact.slots.compactMap { $0.owns ? $0.binding.recognizer.slop : nil }.max() ?? PalmRule.slop
        contact.rest(slop: slop * factor)
        if time >= contact.start + configuration.decisionTimeout || contact.restingMovedAway {
            decide(&contact, .handedOver(.penNear), at: time, into: &outputs)
        } else {
            timers.set(.decision(key), deadline: contact.start + configuration.decisionTimeout)
        }
        contacts[key] = contact
    }

    private mutating func decisionTimedOut(_ key: ContactKey, at time: Double, into outputs: inout [EngineOutput]) {
        guard var contact = contacts[key], !contact.isDecided else { return }
        if contact.isResting {
            decide(&contact, .handedOver(.penNear), at: time, into: &outputs)
            contacts[key] = contact
            return
        }
        // Gestures that wait on their own timer (a long press) keep the contact until it runs
        // out; pressure gestures keep it while its force says to (`followForce`), once it has
        // said anything at all.
        let forceSpeaks = contact.forceHasSpoken
        let position = contact.position
        for index in contact.slots.indices where contact.slots[index].active && contact.slots[index].owns
            && contact.slots[index].recognizer.deadline == nil && !(forceSpeaks && contact.slots[index].followsForce) {
            drop(&contact.slots[index], key: key, slotIndex: index, at: time, position: position, into: &outputs)
        }
        settleIfUnowned(&contact, reason: .timeout, at: time, into: &outputs)
        contacts[key] = contact
    }

    /// The hold that follows the force (`HoldPolicy`): judges the held contact's trend at
    /// `time` and hands the contact over once its force has levelled off at an ordinary
    /// level, or once the hold limit has passed; otherwise looks again when that could change.
    private mutating func followForce(_ contact: inout TrackedContact, at time: Double,
                                      into outputs: inout [EngineOutput]) {
        guard !contact.isDecided, let ordinary = contact.ordinaryForce,
              let step = contact.followForce(at: time, ordinary: ordinary) else {
            stopFollowingForce(&contact)
            return
        }
        let reason: ReleaseReason
        switch step {
        case .hold(let recheck):
            if let recheck { timers.set(.hold(contact.key), deadline: recheck) }
            return
        case .handOver(let why):
            reason = why
        }
        let position = contact.position
        for index in contact.slots.indices where contact.slots[index].followsForce
            || (reason == .limit && contact.slots[index].active && contact.slots[index].owns) {
            drop(&contact.slots[index], key: contact.key, slotIndex: index, at: time,
                 position: position, into: &outputs)
        }
        // Another owning gesture (a long press on its own timer) may keep the contact held.
        stopFollowingForce(&contact)
        settleIfUnowned(&contact, reason: reason, at: time, into: &outputs)
    }

    /// The force no longer decides: the trend and its timer go together.
    private mutating func stopFollowingForce(_ contact: inout TrackedContact) {
        contact.stopFollowingForce()
        timers.set(.hold(contact.key), deadline: nil)
    }

    /// Releases an undecided contact no owning gesture holds any more (a palm, which none
    /// holds, waits for its own decision: `rest`).
    private mutating func settleIfUnowned(_ contact: inout TrackedContact, reason: ReleaseReason, at time: Double,
                                          into outputs: inout [EngineOutput]) {
        guard case .undecided = contact.hold, !contact.hasActiveOwner else { return }
        decide(&contact, .handedOver(reason), at: time, into: &outputs)
    }

    /// The one place a contact is decided, claimed or handed over: the hold, its two timers
    /// and the report change together. A decided contact is never decided again.
    /// `takingBack`: a claim nothing acted on may become a release (`takeBack`).
    private mutating func decide(_ contact: inout TrackedContact, _ decision: ContactHold, at time: Double,
                                 takingBack: Bool = false, into outputs: inout [EngineOutput]) {
        let key = contact.key
        // A touch held as a palm that moved past its slop is a finger's scroll after all.
        let scrolledAway = contact.restingMovedAway
        let held = time - contact.start
        let report: ContactDecision
        switch (contact.hold, decision) {
        case (.undecided, .claimed(let gesture, _)):
            report = .claim(key, gesture: gesture, time: time, held: held)
        case (.undecided, .handedOver(let reason)), (.resting, .handedOver(let reason)):
            report = .release(key, reason: reason, time: time, held: held)
        case (.claimed, .handedOver(let reason)) where takingBack:
            report = .release(key, reason: reason, time: time, held: held)
        case (.undecided, .undecided), (.undecided, .resting), (.resting, .undecided), (.resting, .resting),
             (.resting, .claimed), (.claimed, _), (.handedOver, _):
            outputs.append(.bug("contact \(key.contact) of device \(key.device), \(contact.hold.summary), cannot become \(decision.summary)"))
            return
        }
        contact.settle(decision, at: time)
        timers.set(.decision(key), deadline: nil)
        timers.set(.hold(key), deadline: nil)
        outputs.append(.decision(report))
        // The watching gestures' actions held with the press: after it, when the press is the
        // application's; none when a gesture won it (a deep press delivers its right-click and
        // nothing else) or it is a hand resting as the pen writes (a palm makes no gesture).
        switch decision {
        case .handedOver(.penNear) where scrolledAway:
            releaseHeld(&contact, at: time, into: &outputs)
        case .handedOver(.penDown), .handedOver(.penNear), .claimed:
            endWatching(&contact, at: time, into: &outputs)
        case .handedOver:
            releaseHeld(&contact, at: time, into: &outputs)
        case .undecided, .resting:
            break
        }
        if contact.device.kind.isPen, case .handedOver = decision {
            // The hand came down first and the pen's stroke, or its tap, is the application's
            // now: the touches held back go to it the same way, in the order they touched.
            handOverHeldTouches(where: Self.isHeldTouch, reason: .penDown, at: time, into: &outputs)
        }
    }

    /// The watching gestures' actions and pulses held with the press, after its decision, at
    /// its time.
    private func releaseHeld(_ contact: inout TrackedContact, at time: Double, into outputs: inout [EngineOutput]) {
        for output in contact.heldActions {
            switch output {
            case .action(var action):
                action.time = time
                outputs.append(.action(action))
            case .feedback(.pulse(let key, let point, _)):
                outputs.append(.feedback(.pulse(key, at: point, time: time)))
            default:
                outputs.append(output)
            }
        }
        contact.heldActions = []
    }

    /// Ends the contact's watching gestures without their actions, those held back included
    /// (so none was sent, and no end action has anything to undo: a discrete one recognized
    /// already ends with no `on-end` either, found in review): one begun is `cancelled`, as a
    /// continuous gesture ends (found in review: `failed` after `began` broke the promise a
    /// reader of `--json` pairs its stages by), one not begun `failed`.
    private mutating func endWatching(_ contact: inout TrackedContact, at time: Double, into outputs: inout [EngineOutput]) {
        contact.heldActions = []
        let key = contact.key
        let position = contact.position
        for index in contact.slots.indices where !contact.slots[index].owns {
            contact.slots[index].endsWithContact = false
            guard contact.slots[index].active else { continue }
            drop(&contact.slots[index], key: key, slotIndex: index, at: time, position: position,
                 reporting: contact.slots[index].began ? .cancelled : .failed, into: &outputs)
        }
    }

    /// A touch still held back from the application, its decision to come.
    private static func isHeldTouch(_ contact: TrackedContact) -> Bool {
        contact.device.kind == .touch && !contact.isDecided
    }

    /// Hands the contacts `which` picks to the application, in the order they touched (one
    /// decided already stays as it is); whether there were any.
    @discardableResult
    private mutating func handOverHeldTouches(where which: (TrackedContact) -> Bool, reason: ReleaseReason, at time: Double,
                                              into outputs: inout [EngineOutput]) -> Bool {
        let held = contacts.values.filter(which).sorted { ($0.start, $0.key) < ($1.start, $1.key) }
        for contact in held { handOver(contact.key, reason: reason, at: time, into: &outputs) }
        return !held.isEmpty
    }

    /// Takes a recognizer out of the running: it reports `failed` (an owning one that lost, or
    /// one that never began), or `cancelled` (a watching one that began: `endWatching`).
    private mutating func drop(_ slot: inout RecognizerSlot, key: ContactKey, slotIndex: Int, at time: Double,
                               position: Point, reporting state: GestureState = .failed, into outputs: inout [EngineOutput]) {
        slot.active = false
        timers.set(.recognizer(key, slot: slotIndex), deadline: nil)
        let report = GestureReport(state: state, time: time, position: position)
        outputs.append(.gesture(GestureEvent(gesture: slot.binding.name, recognizer: slot.binding.recognizer.kind,
                                             device: key.device, contact: key.contact, report: report)))
        if slot.shownProgress != nil {
            slot.shownProgress = nil
            outputs.append(.feedback(.progressEnded(key)))
        }
    }

    private mutating func feed(_ input: RecognizerInput, to key: ContactKey, onlySlot: Int? = nil,
                               into outputs: inout [EngineOutput]) {
        // Taken out while it changes: a copy left in the dictionary would make every sample
        // copy the slots and their recognizers.
        guard var contact = contacts.removeValue(forKey: key) else { return }
        let indices = onlySlot.map { $0..<($0 + 1) } ?? contact.slots.indices
        for index in indices where contact.slots[index].active {
            let step = contact.slots[index].recognizer.handle(input)
            if let bug = step.bug { outputs.append(.bug(bug)) }
            timers.set(.recognizer(key, slot: index), deadline: contact.slots[index].recognizer.deadline)
            for report in step.reports {
                guard contact.slots[index].active else { break }
                if contact.slots[index].owns && report.state.isSuccess && !contact.isDecided {
                    claim(&contact, winner: index, report: report, into: &outputs)
                }
                guard !contact.slots[index].owns, !contact.isDecided else {
                    deliver(report, slot: &contact.slots[index], key: key, into: &outputs)
                    continue
                }
                // A watching gesture's actions and pulse wait with the press they belong to (found
                // in review: a pulse showed for a gesture whose action a deep press then dropped).
                var delivered: [EngineOutput] = []
                deliver(report, slot: &contact.slots[index], key: key, into: &delivered)
                for output in delivered {
                    switch output {
                    case .action, .feedback(.pulse): contact.heldActions.append(output)
                    default: outputs.append(output)
                    }
                }
            }
            showProgress(&contact.slots[index], key: key, input: input, into: &outputs)
        }
        // Each owning recognizer fails on a lift, which would make every undecided lift
        // read as `failed`; the contact ending is what actually settled it.
        settleIfUnowned(&contact, reason: input.endsContact ? .ended : .failed, at: input.time, into: &outputs)
        if contact.restingMovedAway {
            decide(&contact, .handedOver(.penNear), at: input.time, into: &outputs)
        }
        if contact.isFollowingForce, case .move(let sample) = input {
            if let force = sample.force { contact.addForce(force, at: sample.time) }
            followForce(&contact, at: sample.time, into: &outputs)
        }
        contacts[key] = contact
    }

    /// The first owning gesture to begin wins the contact; every other owning one drops out.
    private mutating func claim(_ contact: inout TrackedContact, winner: Int, report: GestureReport,
                                into outputs: inout [EngineOutput]) {
        let slot = contact.slots[winner]
        decide(&contact, .claimed(gesture: slot.binding.name, learning: slot.learns), at: report.time, into: &outputs)
        for index in contact.slots.indices where index != winner && contact.slots[index].active && contact.slots[index].owns {
            drop(&contact.slots[index], key: contact.key, slotIndex: index, at: report.time, position: report.position,
                 into: &outputs)
        }
    }

    /// Emits the report and the actions and feedback its binding attaches to it.
    private func deliver(_ report: GestureReport, slot: inout RecognizerSlot, key: ContactKey,
                         into outputs: inout [EngineOutput]) {
        let binding = slot.binding
        outputs.append(.gesture(GestureEvent(gesture: binding.name, recognizer: binding.recognizer.kind,
                                             device: key.device, contact: key.contact, report: report)))
        func emit(_ actions: [Action], at position: Point) {
            for action in actions {
                outputs.append(.action(ActionEvent(time: report.time, gesture: binding.name, contact: key,
                                                   action: action, position: position)))
            }
        }
        func fire(_ actions: [Action]) { emit(actions, at: report.position) }
        // A knob's steps act where the contact went down on it, as a wheel's clicks go to the
        // window under it: one window gets them all, and the pointer does not hop along the
        // ring with them.
        let origin = slot.origin
        func fireStep(_ actions: [Action]) { emit(actions, at: origin) }
        switch report.state {
        case .began, .recognized:
            slot.began = true
            slot.lastForce = report.force
            if binding.feedback.contains(.pulse) {
                outputs.append(.feedback(.pulse(key, at: report.position, time: report.time)))
            }
            fire(binding.onStart)
            if report.state == .recognized, !binding.onEnd.isEmpty { slot.endsWithContact = true }
            // A knob that waited for its activation angle brings the turn so far.
            if let knob = report.knob, let steps = binding.steps {
                step(by: knob.rotation * 180 / .pi, steps, backlash: Self.knobBacklash(at: knob.distance, step: steps.step, scale: slot.scale), slot: &slot, fire: fireStep)
            } else if binding.recognizer.kind == .force, let steps = binding.steps, let force = report.force {
                // The force rose from nothing to where the contact landed, as the thresholds a
                // landing passes are crossed (found in review: a firm landing easing off
                // stepped down only, a zoom out at every stab).
                step(by: force, steps, backlash: 0, slot: &slot, fire: fire)
            }
        case .changed:
            if let crossing = report.crossing {
                fire(crossing.direction == .up ? binding.onCrossUp : binding.onCrossDown)
            }
            if let steps = binding.steps {
                if let knob = report.knob {
                    step(by: knob.rotation * 180 / .pi, steps, backlash: Self.knobBacklash(at: knob.distance, step: steps.step, scale: slot.scale), slot: &slot, fire: fireStep)
                } else if let force = report.force, let last = slot.lastForce {
                    step(by: force - last, steps, backlash: 0, slot: &slot, fire: fire)
                }
            }
            if let force = report.force { slot.lastForce = force }
        case .ended, .cancelled:
            // And falls back to nothing at the lift: as many steps down as came up, as a lift
            // lets go of every threshold reached (found in review: a touch's lift reports its
            // last force, so every quick press zoomed in one step more).
            if slot.began, binding.recognizer.kind == .force, let steps = binding.steps, let last = slot.lastForce {
                step(by: -last, steps, backlash: 0, slot: &slot, fire: fire)
                slot.lastForce = 0
            }
            if slot.began { fire(binding.onEnd) }
        case .failed:
            break
        }
        if report.state.isFinal {
            slot.active = false
        }
    }

    /// Carries `delta` toward the next step; one action per whole step, direction by sign. A
    /// step back the other way from the last takes `backlash` of a step more (`knobBacklash`).
    private func step(by delta: Double, _ steps: StepActions, backlash fraction: Double, slot: inout RecognizerSlot,
                      fire: ([Action]) -> Void) {
        guard steps.step > 0 else { return }
        // Angles and forces come from floating-point sums: a turn of exactly one step must
        // not fall a hair short of it.
        let tolerance = steps.step * 1e-9
        let backlash = steps.step * fraction
        slot.carried += delta
        // A step up after one down takes the backlash too, and the other way.
        var up: Double { steps.step + (slot.lastStep < 0 ? backlash : 0) }
        var down: Double { steps.step + (slot.lastStep > 0 ? backlash : 0) }
        // The backlash only makes the first step back late: once it has come, the carried angle
        // counts from where that step would have come without it, so the steps after it come
        // where they came on the way there, and turning back to where the turn began undoes
        // every step. Found in review: each turn back cost a step, and nudging the volume up
        // and back again left it louder each time.
        while slot.carried >= up - tolerance {
            slot.carried -= up
            if slot.lastStep < 0 { slot.carried += backlash }
            slot.lastStep = 1
            fire(steps.increase)
        }
        while slot.carried <= -down + tolerance {
            slot.carried += down
            if slot.lastStep > 0 { slot.carried -= backlash }
            slot.lastStep = -1
            fire(steps.decrease)
        }
    }

    /// How much of a step more a knob's step back the other way takes (`step(by:)`), for a
    /// contact `distance` pixels from its center: the angle `tremorArc` makes there, at most half
    /// a step. The arc is the hand's, a distance under the finger: at the desktop's `scale`
    /// (the ring's radius scaled by it too) it is that many of the screen's pixels. Found in
    /// review: unscaled at `Xft.dpi: 192`, a resting finger flickered the volume again. A finger or pen resting on the ring with a hand's tremor (6 px by the inner edge
    /// are some 20°) swung the carried angle back and forth across a step, and the volume
    /// flickered up and down ten times a second. Turning on the same way, each step comes at a
    /// whole step as before; a turn back begins a few degrees later.
    static func knobBacklash(at distance: Double, step: Double, scale: Double = 1) -> Double {
        guard distance > 0, step > 0 else { return 0.5 }
        return Swift.min(0.5, atan(tremorArc * scale / distance) * 180 / .pi / step)
    }

    /// Pixels a hand's tremor moves a contact resting on a knob's ring, each way.
    static let tremorArc = 5.0

    /// The `ring` feedback: how close the force is to the binding's threshold, until it begins.
    private func showProgress(_ slot: inout RecognizerSlot, key: ContactKey, input: RecognizerInput,
                              into outputs: inout [EngineOutput]) {
        guard slot.binding.feedback.contains(.ring) else { return }
        let threshold: Double
        switch slot.binding.recognizer {
        case .deepPress(let configuration): threshold = configuration.threshold
        case .squeeze(let configuration): threshold = configuration.threshold
        case .force, .pressureThresholds, .knob, .longPress: return
        }
        let sample: ContactSample
        switch input {
        case .down(let value), .move(let value): sample = value
        case .up, .cancel, .timeout: return
        }
        guard slot.active, !slot.began, let force = sample.force, threshold > 0 else {
            if slot.shownProgress != nil {
                slot.shownProgress = nil
                outputs.append(.feedback(.progressEnded(key)))
            }
            return
        }
        let fraction = Swift.min(1, force / threshold)
        guard fraction != slot.shownProgress else { return }
        slot.shownProgress = fraction
        outputs.append(.feedback(.progress(key, at: sample.position, fraction: fraction)))
    }
}

extension RecognizerInput {
    /// A lift or a cancel: the contact itself is over.
    var endsContact: Bool {
        switch self {
        case .up, .cancel: return true
        case .down, .move, .timeout: return false
        }
    }

    var time: Double {
        switch self {
        case .down(let sample), .move(let sample), .up(let sample), .cancel(let sample): return sample.time
        case .timeout(let time): return time
        }
    }
}

/// A lifted contact's lesson for its device's learner, waiting out `GestureEngine.lessonGrace`.
private struct PendingLesson: Sendable {
    var evidence: PressEvidence
    var device: InputDevice
    var deviceID: Int
    var levels: PressLevels
    var span: ClosedRange<Double>
    var due: Double
}
