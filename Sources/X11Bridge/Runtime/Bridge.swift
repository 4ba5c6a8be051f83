import Glibc
import GestureKit

/// The live bridge: X input in, gestures through the engine, actions out through a performer.
///
/// Everything runs on the thread that calls `run`, which must be the thread that opened the
/// connection. The owner hears about everything through the `report` callback.
public final class Bridge {
    public let session: InputListener
    public private(set) var engine: GestureEngine
    public let performer: any ActionPerformer
    /// The on-screen feedback; the engine's `.feedback` outputs go here.
    public let feedback: (any FeedbackPresenter)?
    /// Reads the config again on SIGHUP and when its file changes; nil when nothing reloads.
    private let reloader: ConfigReloader?
    public let clock: MonotonicClock
    /// Shows a circle under every active contact (the touch view) after each batch of input.
    /// Whether the touch view shows every contact (`run --show-touches`).
    public let showsContacts: Bool
    /// A mouse or touchpad no binding listens to has its motion read still, for a contact a
    /// gesture follows (`reconcileMotion`).
    private var motionDeferred = false
    private let pointerOwnership: PointerOwnership
    private let touchOwnership: TouchOwnership
    /// Sets both ownerships' grabs, in order, from what the bindings and devices need.
    private let grabs: GrabReconciler
    private let report: (BridgeEvent) -> Void
    private var stopRequested = false
    /// The terminal run from, if any: its closing stops the bridge, where SIGHUP else reloads.
    public var terminal: ControllingTerminal?
    /// Whether another bridge took the display over, which stopped this one (`InstanceClaim`).
    public private(set) var wasTakenOver = false
    private var volumeRing = VolumeRing()
    /// Force rings held back until their contact is known to be the bridge's.
    private var heldBack = HeldBackOutputs()
    /// The knobs' monitors found missing at the last check, so a change that leaves them
    /// missing does not repeat the warning.
    private var missingMonitors: Set<MissingMonitor> = []
    /// The device names bindings give that no device has, and which were ever here.
    private var missingDevices = MissingDeviceWatch()

    public init(session: InputListener, configuration: BindingSet, performer: any ActionPerformer,
                feedback: (any FeedbackPresenter)? = nil, showsContacts: Bool = false,
                reloader: ConfigReloader? = nil, clock: MonotonicClock = MonotonicClock(),
                learning: PressLearning = PressLearning(), report: @escaping (BridgeEvent) -> Void) {
        self.session = session
        self.feedback = feedback
        self.showsContacts = showsContacts
        self.reloader = reloader
        self.performer = performer
        self.clock = clock
        self.report = report
        self.engine = GestureEngine(configuration: configuration, screen: session.screen, learning: learning)
        engine.lessonGrace = Self.lessonGrace
        self.pointerOwnership = PointerOwnership(connection: session.connection) { report(.inputOwnership($0)) }
        let pointerOwnership = self.pointerOwnership
        self.touchOwnership = TouchOwnership(connection: session.connection, isPointerFrozen: { pointerOwnership.isFrozen(master: $0) },
                                             pointerMayHoldBack: { pointerOwnership.mayHoldBack(master: $0, madeAt: $1) }) {
            report(.inputOwnership($0))
        }
        self.grabs = GrabReconciler(pointer: pointerOwnership, touch: touchOwnership)
    }

    /// Listens until SIGINT or SIGTERM arrives on `signals` (or `stop()` is called), then lets
    /// go of anything held and returns. SIGHUP reloads the config, but stops a bridge whose
    /// terminal closed (`terminal`).
    public func run(signals: SignalDescriptor?) throws(BridgeSetupError) {
        performer.releaseLeftovers(xtestPointer: session.catalog.xtestPointer.map { ($0.id, $0.buttonCount) })
        // The desktop's scale (`Xft.dpi`) sizes the feedback and the gestures' pixel distances alike.
        session.hearsResourceChanges = true
        try session.start()
        session.identifiesWindows = { [unowned self] id in self.needsWindow(for: id) }
        engine.screen = session.screen
        feedback?.look = engine.configuration.look
        engine.monitors = session.monitors
        engine.scale = session.connection.desktopScale
        // The feedback too from the root now, not Xlib's copy from when the display opened: a
        // scale the desktop set meanwhile (a login, `run --replace` waiting for the bridge
        // before it) drew the rings at the old one. Found in review.
        feedback?.resourcesChanged()
        feedback?.screenChanged(session.screen, monitors: session.monitors)
        for device in session.catalog.contactSources { updateEngine(device.id) }
        // The grab is in place before the owner hears that listening began: a press right
        // after that must already wait for the engine.
        reconcileGrabs()
        session.connection.sync()
        session.contactBell = ContactBell(displayName: session.connection.displayName, root: UInt32(session.connection.root))
        report(.started(devices: session.catalog.contactSources, screen: session.screen, monitors: session.monitors))
        checkMonitors(reportingAll: true)
        checkDevices(reportingAll: true)
        let loop = EventLoop(session: session, signals: signals, clock: clock)
        loop.run(self)
        // Said before the contacts still down end, which the server's going ends too.
        if session.connection.isLost, !stopRequested {
            stopRequested = true
            report(.stopping(signal: nil, reason: .serverLost))
        }
        shutdown()
    }

    /// Asks the loop to stop after the event being handled, for `reason`; call it from the
    /// bridge's thread.
    public func stop(_ reason: StopReason) {
        guard !stopRequested else { return }
        stopRequested = true
        report(.stopping(signal: nil, reason: reason))
    }

    /// How much earlier than the moment it is continued the bridge follows contacts again: an
    /// event's time is the server's stamp carried over, which may read a little early, and a
    /// press just after the grabs come back must not be taken for one made while stopped (its
    /// master would stay frozen by the grab it met).
    static let resumeMargin = 0.01

    /// Ctrl-Z in the bridge's terminal (SIGTSTP): everything held is let go first, the grabs
    /// with it (the grab on every master's first button would hold each click of a mouse or
    /// touchpad until the bridge is continued), and then it stops. Continued (`fg`), it grabs
    /// again; what was pressed meanwhile went to the applications and stays theirs.
    private func suspend() {
        let now = clock.now
        // As any cancel: the ownership classes hear each end too (a mouse button down at Ctrl-Z
        // would otherwise count as down for good, and hand the next press of its master over).
        for event in session.pause(at: now) {
            handle(event, at: now)
        }
        // The circles of the contacts just ended go before it stops (found in review: they
        // stayed on the screen, frozen, while it was stopped and after `fg`).
        if showsContacts { showActiveContacts(now: now) }
        grabs.releaseAll(reason: "the bridge is stopped (Ctrl-Z)")
        releaseHeld(reason: "the bridge is stopped (Ctrl-Z)")
        feedback?.tick(now: now)
        session.connection.sync()
        report(.suspended)
        SignalDescriptor.stopAsAsked()
        session.resume(followingFrom: clock.now - Self.resumeMargin)
        reconcileGrabs()
        session.connection.sync()
        report(.resumed)
    }

    /// How long a lifted contact waits to teach its device's learner (`GestureEngine.lessonGrace`):
    /// the removal of a device X let go of comes right behind the lift it made.
    static let lessonGrace = 0.3

    private func shutdown() {
        let now = clock.now
        // Contacts still down end as cancelled, so bindings fire their end actions (a held
        // press is released the way its binding says) before everything else is let go.
        for event in session.cancelAll(at: now) {
            process(engine.handle(event), now: now)
        }
        // The contacts lifted just before are lessons still: the saved state has them.
        var lessons: [EngineOutput] = []
        engine.learnPending(into: &lessons)
        process(lessons, now: now)
        // With the server gone there is nothing to let go of, and nothing sent would reach it.
        guard !session.connection.isLost else { return }
        grabs.releaseAll(reason: "the bridge is stopping")
        releaseHeld(reason: "the bridge is stopping")
        performer.shutdown()
        feedback?.close()
        session.connection.sync()
        let errors = session.connection.takeErrors()
        for error in errors { report(.xError(error)) }
    }

    /// Makes the grabs, and which mice' and touchpads' motion is read, what the bindings and
    /// the devices present need: the one place that does, after every change that can alter
    /// either. A grab that still holds a contact stays until that contact is over
    /// (`GrabReconciler.settle`); so does the motion of a contact a gesture still follows.
    private func reconcileGrabs() {
        grabs.reconcile(OwnedInputs(configuration: engine.configuration, devices: engine.devices.values))
        reconcileMotion()
    }

    /// Which mice' and touchpads' motion goes unread (`InputListener.readMotion(except:)`):
    /// those no binding listens to, but for one whose contact a gesture still follows (it keeps
    /// the bindings it began with across a reload: a long press must still see a drag); then
    /// `motionDeferred`, and asked again as contacts settle. Contacts shown (`--show-touches`)
    /// are drawn moving, bound or not.
    private func reconcileMotion() {
        guard !showsContacts else { return }
        let followed = Set(engine.activeContacts.filter { !engine.isSettled($0) }.map(\.device))
        let unbound = engine.devices.values.filter { !engine.configuration.listens(to: $0) }.map(\.id)
        motionDeferred = unbound.contains(where: followed.contains)
        session.readMotion(except: Set(unbound.filter { !followed.contains($0) }))
    }

    /// Whether the contact's grabbed press or touch has yet to come: until it does, another
    /// program's grab may have it.
    private func awaitsOwnership(_ key: ContactKey) -> Bool {
        if isPointerContact(key.device) { return pointerOwnership.masterAwaitingPress(of: key.device) != nil }
        if isTouchContact(key.device) { return touchOwnership.masterAwaitingBegin(device: key.device, touch: key.contact) != nil }
        return false
    }

    /// Acts on what a contact said while its press or touch was awaited, once that is settled
    /// as the bridge's (what went to another grab was dropped: `handOver`).
    private func settleHeldBack(_ key: ContactKey, now: Double) {
        for output in heldBack.settled(key, awaitsOwnership: awaitsOwnership) { act(on: output, now: now) }
    }

    private func isTouchContact(_ device: Int) -> Bool {
        session.device(device)?.inputDevice?.kind == .touch
    }

    private func isPointerContact(_ device: Int) -> Bool {
        session.device(device)?.inputDevice?.isPointer ?? false
    }

    /// Stops hearing a pen's or mouse's motion for the rest of a stroke every gesture has
    /// given up on: a drawing stroke would otherwise wake the bridge for every sample and
    /// change nothing. The touch view shows contacts as they move, so with it all is heard.
    private func settleMotion(of device: Int) {
        guard !showsContacts, !session.unheardMotion.contains(device),
              engine.isSettled(ContactKey(device: device, contact: 0)), session.stopMotion(of: device) else { return }
        report(.motionUnheard(device: device))
    }

    /// Whether a contact of device `id` needs the window under it named: a binding limited to
    /// some applications listens to the device as the engine knows it now.
    private func needsWindow(for id: Int) -> Bool {
        guard let device = engine.devices[id] else { return false }
        return engine.configuration.bindings.contains { $0.applications != .everywhere && $0.listens(to: device) }
    }

    private func releaseHeld(reason: String) {
        guard performer.isHolding else { return }
        performer.releaseAll()
        report(.releasedHeldInput(reason: reason))
    }

    /// Lets go of each button the bridge holds (a `press:`, a drag lock) that nothing could let
    /// go of any more: no binding of the config running now releases or clicks it, none of the
    /// contacts still down holds it, and none began under a binding that could (a contact keeps
    /// the bindings it began with across a reload, and may yet release it: it is asked again as
    /// each contact ends). A reload makes such a button (a config read is refused when a
    /// button one of its bindings presses is released by none); so does, `afterRemoval`, the
    /// last device that could let go of it going away. (Only then are the bindings asked for a
    /// device that is here: a drag lock taken while the device that lets go of it is switched
    /// off, or not yet made, as libinput makes an eraser's at its first proximity, holds.)
    private func releaseStrandedButtons(afterRemoval: Bool = false) {
        guard performer.holdsButton else { return }
        let bindings = engine.configuration
        let releasable = (afterRemoval ? bindings.releasedButtons(byContactsOf: engine.devices.values) : bindings.releasedButtons)
            .union(engine.buttonsReleasableByContactsDown)
        let down = Set(engine.activeContacts)
        let released = performer.releaseButtons { button, holders in
            !releasable.contains(button) && holders.isDisjoint(with: down)
        }
        guard !released.isEmpty else { return }
        let buttons = released.map(String.init).joined(separator: ", ")
        report(.releasedHeldInput(reason: afterRemoval ? "button \(buttons), which no binding of the config running now lets go of with a device that is here"
                                  : "button \(buttons), which no binding of the config running now lets go of"))
    }

    /// Acts on the engine's outputs, but for what a contact says while its press or touch may
    /// yet be another grab's (`HeldBackOutputs`).
    private func process(_ outputs: [EngineOutput], now: Double) {
        for output in outputs {
            for ready in heldBack.pass(output, awaitsOwnership: awaitsOwnership) { act(on: ready, now: now) }
        }
    }

    private func act(on output: EngineOutput, now: Double) {
        report(.engine(output))
        // A lost connection keeps what is sent in Xlib's buffer, and one request too many
        // crashes inside Xlib: said, not done (the loop stops at the next event).
        guard !session.connection.isLost else { return }
        defer {
            show(volumeRing.observe(output, configuration: engine.configuration, screen: engine.screen, monitors: engine.monitors),
                 now: now)
        }
        switch output {
        case .action(let event):
            // A failed action sent nothing (a command not found, a key with no keycode):
            // what other bindings hold stays held until their own end.
            do {
                try performer.perform(event, now: now)
            } catch {
                report(.actionFailed(event, error))
            }
        case .feedback(let feedback):
            self.feedback?.show(feedback, now: now)
        case .decision(let decision):
            let key = decision.key
            if isPointerContact(key.device) || pointerOwnership.carries(key), let master = session.device(key.device)?.master {
                pointerOwnership.decide(decision, master: master, at: now)
            } else if isTouchContact(key.device) {
                touchOwnership.decide(decision, at: now)
            }
        case .gesture, .bug, .learned:
            break
        }
    }

    private func show(_ feedbacks: [Feedback], now: Double) {
        for item in feedbacks { feedback?.show(item, now: now) }
    }

    /// Volume levels read back fill the knob's ring; a change that failed is logged, and takes
    /// the level off the rings.
    private func takeVolumeReports(now: Double) {
        for volumeReport in performer.takeVolumeReports() {
            switch volumeReport {
            case .level(let level): show(volumeRing.levelRead(level), now: now)
            case .muted: show(volumeRing.levelUnknown(), now: now)
            case .failed(let event, let failure):
                report(.actionFailed(event, failure))
                show(volumeRing.changeFailed(), now: now)
            }
        }
    }

    /// Warns of knobs centered on a monitor that is not connected: all of them, or only those
    /// missing since the last check.
    private func checkMonitors(reportingAll: Bool) {
        let missing = engine.configuration.missingMonitors(in: engine.monitors).map { MissingMonitor(binding: $0.binding, monitor: $0.monitor) }
        let connected = engine.monitors.monitors.map(\.name)
        for item in missing where reportingAll || !missingMonitors.contains(item) {
            report(.monitorMissing(binding: item.binding, monitor: item.monitor, connected: connected))
        }
        missingMonitors = Set(missing)
    }

    /// Warns of bindings naming a device that is not connected and never was since the start
    /// (a typo, a renamed device; not a device disabled, nor one gone asleep): all of them, or
    /// only those missing since the last check, or whose nearest connected name changed
    /// (`MissingDeviceWatch`).
    private func checkDevices(reportingAll: Bool) {
        let devices = engine.devices.values.sorted { $0.id < $1.id }
        // A device disabled is connected: a server whose VT is switched away from (another
        // user's session, fast user switching) disables them all, and a tablet switched off
        // by its owner is theirs to switch on. Found in review of a shared lab.
        let disabled = session.catalog.devices.filter { !$0.isEnabled }.compactMap(\.inputDevice)
        let missing = engine.configuration.missingDevices(among: devices + disabled).map {
            MissingDeviceWatch.Missing(binding: $0.binding, name: $0.name, suggestion: $0.suggestion)
        }
        let connected = devices.map(\.name)
        for item in missingDevices.check(missing, connected: connected + disabled.map(\.name), reportingAll: reportingAll) {
            report(.deviceMissing(binding: item.binding, name: item.name, connected: connected, suggestion: item.suggestion))
        }
    }

    /// Applies what a reload came to: new bindings for contacts that begin from now on (and
    /// the grabs they need), or, for anything else, the report alone.
    private func apply(_ outcome: ConfigReloader.Outcome) {
        switch outcome {
        case .reloaded(let configuration, let source):
            engine.replaceConfiguration(configuration)
            feedback?.look = configuration.look
            reconcileGrabs()
            report(.configurationReloaded(source: source.description, bindings: configuration))
            releaseStrandedButtons()
            checkMonitors(reportingAll: true)
            // Only what the reload newly misses: found in review of a config at scale, a script
            // reloading an unchanged config every few seconds had each binding naming an
            // unplugged tablet warned of at every reload (2,928 warnings in an hour).
            checkDevices(reportingAll: false)
        case .rejected(let source, let message):
            report(.configurationRejected(source: source.description, message: message))
        case .unavailable:
            report(.reloadUnavailable)
        case .fileRemoved(let path):
            report(.configurationFileRemoved(path: path))
        case .unwatched(let path, let reason):
            report(.configurationUnwatched(path: path, reason: reason))
        }
    }
}

extension Bridge: EventLoopClient {
    /// One contact event, with everything it tells the ownership classes and the engine.
    private func handle(_ event: ContactEvent, at time: Double) {
        let handedOverAtBegin = tellOwnership(about: event, now: time)
        var outputs: [EngineOutput] = []
        let liveness = if let handedOverAtBegin {
            engine.handle(event, handedOverAtBegin: handedOverAtBegin, into: &outputs)
        } else {
            engine.handle(event, into: &outputs)
        }
        process(outputs, now: time)
        // A finger's drag under a button it holds (a long press then drag): X moves no pointer
        // for a touch the bridge has. A pen or mouse moves its own.
        if event.phase == .move, isTouchContact(event.device) {
            performer.follow(ContactKey(device: event.device, contact: event.contact), to: event.position)
        }
        if event.phase == .end || event.phase == .cancel {
            // What it said while its press or touch was awaited acts now, unless another grab
            // had that (`tellOwnership`).
            let key = ContactKey(device: event.device, contact: event.contact)
            settleHeldBack(key, now: time)
            heldBack.drop(key)
            grabs.retryRefused()
            // Its end actions fired: what it held across a reload may be nobody's now.
            releaseStrandedButtons()
        }
        // Found dead or alive, the pressure counts so from the device's next contact on:
        // the one that showed it began under the grabs as they were (a press that brings
        // dead pressure back was not held, and must not also become a deep press).
        apply(liveness)
        settleMotion(of: event.device)
        rereadIfRejoined(at: time)
    }

    func handle(_ changes: [InputChange], at time: Double) {
        // What was read before the server went is not acted on: nothing sent would reach it.
        for change in changes where !session.connection.isLost {
            switch change {
            case .contact(let event) where event.phase == .hover:
                // A pen above the screen: no input of anybody's to hold; it tells the engine
                // that a touch now is a hand resting where the pen writes (`PalmRule`). Timers
                // it brings due are looked at as the loop's are (`fireTimers`).
                if let next = engine.nextDeadline, next <= event.time { checkAwaitingContacts(now: time) }
                var outputs: [EngineOutput] = []
                engine.handle(event, into: &outputs)
                if !outputs.isEmpty { process(outputs, now: time) }
            case .contact(let event):
                handle(event, at: time)
            case .devices(let changes):
                for device in changes.removed {
                    pointerOwnership.end(source: device.id)
                    touchOwnership.end(device: device.id)
                    heldBack.drop(device: device.id)
                    var outputs: [EngineOutput] = []
                    // Switched off, not gone (every device at a VT switch): a pressure found dead
                    // stays so, where every switch back had it found dead again, two contacts late.
                    let disabled = session.catalog[device.id].map { !$0.isEnabled && $0.name == device.name } ?? false
                    engine.removeDevice(device.id, disabled: disabled, at: time, into: &outputs)
                    process(outputs, now: time)
                }
                for device in changes.added + changes.updated + changes.remapped { updateEngine(device.id) }
                reconcileGrabs()
                report(.devicesChanged(changes))
                checkDevices(reportingAll: false)
                // The removed devices' contacts were cancelled above, their end actions fired. What
                // is still held then belongs to a contact of another device (a finger's
                // middle-button drag goes on when a mouse drops off), or is a drag lock, which an
                // unrelated device's going (a mouse asleep, a tablet re-plugged at resume) does not
                // drop: it is let go once no device here could let go of it.
                if !changes.removed.isEmpty { releaseStrandedButtons(afterRemoval: true) }
            case .screenResized(let size):
                engine.screen = size
                feedback?.screenChanged(size, monitors: engine.monitors)
                report(.screenResized(size))
            case .monitorsChanged(let layout):
                engine.monitors = layout
                feedback?.screenChanged(engine.screen, monitors: layout)
                report(.monitorsChanged(layout))
                checkMonitors(reportingAll: false)
            case .grabbedPointer(let grabbed, let emulating):
                if let emulating, let touch = touchOwnership.handOver(ContactKey(device: grabbed.source, contact: emulating)) {
                    pointerOwnership.takeOver(grabbed, touch, at: time)
                    for key in touchOwnership.takeTakenElsewhere() { handOverToAnotherGrab(key, at: time, now: time) }
                    settleHeldBack(ContactKey(device: grabbed.source, contact: emulating), now: time)
                } else {
                    pointerOwnership.handle(grabbed, at: time) { [session] in
                        session.device($0)?.inputDevice?.isPointer ?? false
                    }
                    if grabbed.kind == .buttonPress {
                        for event in session.catchUpMotion(of: grabbed.source, at: time) { handle(event, at: time) }
                        settleHeldBack(ContactKey(device: grabbed.source, contact: 0), now: time)
                    }
                }
            case .grabbedTouch(let grabbed):
                touchOwnership.handle(grabbed)
                for key in touchOwnership.takeTakenElsewhere() { handOverToAnotherGrab(key, at: time, now: time) }
                settleHeldBack(ContactKey(device: grabbed.source, contact: grabbed.touchID), now: time)
            case .takenOver:
                wasTakenOver = true
                stop(.takenOver)
            case .resourcesChanged:
                feedback?.resourcesChanged()
                // Contacts from now on; those down keep the scale they began with.
                engine.scale = session.connection.desktopScale
            case .anotherButton(let device, let when):
                // Held back, the tip's press would leave the side button's press queued behind
                // it; kept, its stroke would go off the master with that button down there, and
                // the grab would never end. The press goes on with it, as without the bridge.
                handOver(ContactKey(device: device, contact: 0), at: when, now: time)
            }
        }
        grabs.settle()
        if motionDeferred { reconcileMotion() }
        if showsContacts { showActiveContacts(now: time) }
    }

    /// Gives the engine the device `id` as the catalog has it now (`InputDevice`): the one
    /// place the engine's devices come from.
    private func updateEngine(_ id: Int) {
        guard let input = session.device(id)?.inputDevice else { return }
        engine.addDevice(input)
    }

    /// A device's pressure found dead, or alive again: the engine uses it so from its next
    /// contact on, and the grabs follow what listens to it now.
    private func apply(_ liveness: PressureLiveness.Change?) {
        let (id, dead): (Int, Bool)
        switch liveness {
        case .dead(let device)?: (id, dead) = (device, true)
        case .alive(let device)?: (id, dead) = (device, false)
        case nil: return
        }
        reconcileGrabs()
        report(.pressureDead(device: id, name: engine.devices[id]?.name ?? "device \(id)", dead: dead))
    }

    /// A device list read while the bridge had a device grabbed on its own for a kept stroke
    /// says it floats; let go of since (its lift, an X error), it is back on its master, and
    /// the list must say so, or its next presses would not be held.
    private func rereadIfRejoined(at time: Double) {
        let rejoined = pointerOwnership.takeRejoined()
        guard rejoined.contains(where: { session.device($0)?.master == nil }) else { return }
        handle(session.rereadDevices(at: time), at: time)
    }

    /// Whether another client's grab took a contact's press or touch, not the bridge's (only a
    /// press on a master no grab has activates a passive one): an open menu's, a drag's or a
    /// screen locker's active grab; a window's grab of the emulated press of a finger the
    /// application has, where the window takes no touch (X ends that grab at this press's
    /// release). Its grabbed press or begin comes right behind its raw one; not come by the
    /// contact's next event, it went to another grab, or waits behind another client's freeze
    /// of the master (a keyboard grab freezing the pointer). For a pen or mouse still down, the
    /// master's button 1 tells which, in one round trip: down once the server has processed the
    /// press, up while it waits in the frozen master's queue. (A touch's emulated press does not
    /// count among the master's buttons: a touch is taken for another grab's.) Taken, the
    /// contact is forgotten by the ownership classes and is the application's, as without the
    /// bridge.
    private func takenByAnotherGrab(_ device: Int, contact: Int) -> Bool {
        if isPointerContact(device), let master = pointerOwnership.masterAwaitingPress(of: device),
           session.connection.queryPointer(master: master)?.buttons.contains(1) == true {
            pointerOwnership.pressNotTaken(source: device)
            return true
        }
        if isTouchContact(device), touchOwnership.masterAwaitingBegin(device: device, touch: contact) != nil {
            touchOwnership.notTaken(device: device, touch: contact)
            return true
        }
        return false
    }

    /// Before timers decide: a contact held still sends no next event, so one whose press
    /// another grab took (a finger held on a menu's item) is told here, before its long press
    /// claims it.
    private func checkAwaitingContacts(now: Double) {
        let pointers = pointerOwnership.awaitingPress.map { ContactKey(device: $0.source, contact: 0) }
        let touches = touchOwnership.awaitingBegin.map(\.contact)
        for key in pointers + touches where takenByAnotherGrab(key.device, contact: key.contact) {
            handOverToAnotherGrab(key, at: now, now: now)
        }
        for output in heldBack.settledAll(awaitsOwnership: awaitsOwnership) { act(on: output, now: now) }
    }

    /// A contact's press or touch went to another client's grab (`takenByAnotherGrab`): it goes
    /// on as without the bridge, and nothing it said or says until it ends acts (`HeldBackOutputs`).
    /// A claim held back with the rest is taken back (`GestureEngine.takeBack`).
    private func handOverToAnotherGrab(_ key: ContactKey, at time: Double, now: Double) {
        for output in heldBack.takenByAnotherGrab(key) { act(on: output, now: now) }
        var outputs: [EngineOutput] = []
        engine.takeBack(key, reason: .anotherButton, at: time, into: &outputs)
        process(outputs, now: now)
    }

    /// A pen's or mouse's contact goes to the application as without the bridge, its gestures
    /// with it, because another button of its master is down (`ReleaseReason.anotherButton`).
    /// Found in review: a claim held back while another client froze the pointer was dropped
    /// here with nothing to decide its press, which then stayed frozen; and a contact a locker
    /// had was let act again. A held claim never acted, and is taken back; a contact another
    /// grab has stays that grab's.
    private func handOver(_ key: ContactKey, at time: Double, now: Double) {
        let heldAny = heldBack.holds(key)
        for output in heldBack.forgetHeld(key) { act(on: output, now: now) }
        var outputs: [EngineOutput] = []
        if heldAny {
            engine.takeBack(key, reason: .anotherButton, at: time, into: &outputs)
        } else {
            engine.handOver(key, reason: .anotherButton, at: time, into: &outputs)
        }
        process(outputs, now: now)
    }

    /// Tells the ownership classes of a contact's begin or end: the ownership of its device's
    /// kind holds or lets go of it. For a contact that goes to the application whole from its
    /// begin, its gestures with it, why: a pen's or mouse's press begun while its master had
    /// another button down, which no grab took (`ReleaseReason.anotherButton`), or a touch
    /// beside one the application holds (`TouchOwnership.applicationHoldsTouch`,
    /// `ReleaseReason.anotherFinger`).
    private func tellOwnership(about event: ContactEvent, now: Double) -> ReleaseReason? {
        switch event.phase {
        case .move:
            if takenByAnotherGrab(event.device, contact: event.contact) {
                handOverToAnotherGrab(ContactKey(device: event.device, contact: event.contact), at: event.time, now: now)
            }
        case .begin:
            let master = session.device(event.device)?.master
            if isPointerContact(event.device) {
                // Another client holds the button grab (a gesture daemon's, started first): its
                // presses are that client's or the application's, as without the bridge, and no
                // owning gesture acts on them, as for touches. Found in review: a deep press
                // right-clicked beside the press the other client had (two bridges: twice).
                if pointerOwnership.isGrabRefused { return .anotherButton }
                // The bridge's own press is on the master of X's virtual pointer only (MPX).
                let ownPress = performer.holdsButton && master != nil && master == session.catalog.xtestPointer?.master
                let otherButtonDown = ownPress || master.map { session.holdsOtherButtons(onMaster: $0) } == true
                pointerOwnership.contactBegan(source: event.device, master: master, serial: session.lastSerial,
                                              otherButtonDown: otherButtonDown, at: event.time)
                return otherButtonDown ? .anotherButton : nil
            } else if isTouchContact(event.device), let master {
                // Another client holds the touches (a gesture daemon's grab on the root, which
                // the bridge could not share): each is that client's or the application's, as
                // without the bridge, and no owning gesture may act on it (a deep press's
                // right-click beside the application's button 1 left that held). Found in review.
                if touchOwnership.isGrabRefused { return .anotherButton }
                // Taken now, before this touch counts among them.
                let besideApplicationTouch = touchOwnership.applicationHoldsTouch(onMaster: master)
                touchOwnership.contactBegan(device: event.device, touch: event.contact, master: master, serial: session.lastSerial,
                                            at: event.time)
                return besideApplicationTouch ? .anotherFinger : nil
            }
        case .end, .cancel:
            // A touch into an open menu: the menu's grab owns it (`takenByAnotherGrab`). (A pen's
            // tap there cannot be told at its lift from one another client's freeze holds back:
            // the master's button is up either way. Its release is decided ahead of a grabbed
            // press that may never come, which the device's next press sets aside:
            // `PointerOwnership`.)
            let key = ContactKey(device: event.device, contact: event.contact)
            if isTouchContact(event.device), takenByAnotherGrab(event.device, contact: event.contact) {
                handOverToAnotherGrab(key, at: event.time, now: now)
            }
            // A pen's or mouse's press whose claim or actions wait for it (`HeldBackOutputs`),
            // lifted before it came: another grab has it (a locker's, a menu's: a tap landing
            // past a threshold is claimed before any move could tell), or another client's grab
            // froze the pointer, and the press goes on when it thaws. Either way it goes on as
            // without the bridge.
            if isPointerContact(event.device), heldBack.holds(key), awaitsOwnership(key) {
                handOverToAnotherGrab(key, at: event.time, now: now)
            }
            if isPointerContact(event.device) || pointerOwnership.carries(ContactKey(device: event.device, contact: event.contact)) {
                pointerOwnership.contactEnded(source: event.device, master: session.device(event.device)?.master)
            } else if isTouchContact(event.device) {
                touchOwnership.contactEnded(device: event.device, touch: event.contact)
            }
        case .hover:
            break
        }
        return nil
    }

    /// The pens' and fingers' contacts for the touch view (`--show-touches`): a mouse's or
    /// touchpad's pointer shows where it is already (found in review: every mouse drag had a
    /// circle, where help and README promise pens and fingers).
    private func showActiveContacts(now: Double) {
        let shown = engine.contactsDown.filter { contact in
            switch engine.devices[contact.key.device]?.kind {
            case .pen, .eraser, .touch: true
            case .mouse, .touchpad, nil: false
            }
        }
        feedback?.showContacts(shown, now: now)
    }

    /// Hover samples in a row, with no contact event among them, before a lull: 50 ms at
    /// 1000 Hz. A pen that only passes over on its way down is read as it comes.
    static let hoverRunForLull = 50

    /// Whether a fast stream may be read in batches (`EventLoop` decides when a stream is
    /// fast enough, and how far apart). Two such streams: a pen that has hovered for a while (a
    /// hover sample read late changes nothing: it says where the press to come begins, and that
    /// a touch now is a palm, which the samples read before the touch say as well; the loop's
    /// contact bell wakes it for the press and the touch), and
    /// contacts only a knob follows (`GestureEngine.acceptsLateInput`: a scroll or volume step
    /// lands up to a display frame late). From a press or touch on, every sample is read as it
    /// comes.
    var inputLull: InputLull? {
        guard !showsContacts else { return nil }
        if session.source.hasContactsDown {
            return engine.acceptsLateInput ? .onceAFrame : nil
        }
        return session.source.hoverRun >= Self.hoverRunForLull ? .untilContactChanges : nil
    }

    func fireTimers(at now: Double) -> Bool {
        guard !session.connection.isLost else { return false }
        let engineDue = engine.nextDeadline.map { $0 <= now } ?? false
        if engineDue {
            checkAwaitingContacts(now: now)
            process(engine.advance(to: now), now: now)
            // A decision timeout can leave a stroke no gesture follows.
            for key in engine.activeContacts where key.contact == 0 { settleMotion(of: key.device) }
            grabs.settle()
            if motionDeferred { reconcileMotion() }
        }
        if let feedback, let deadline = feedback.nextDeadline, deadline <= now {
            feedback.tick(now: now)
        }
        if let deadline = performer.nextDeadline, deadline <= now {
            performer.tick(now: now)
            takeVolumeReports(now: now)
        }
        if let outcome = reloader?.fire(at: now) { apply(outcome) }
        return engineDue
    }

    /// The engine's: its timers decide contacts (`fireTimers`).
    var nextDecidingDeadline: Double? { engine.nextDeadline }

    var nextDeadline: Double? {
        // Asked on every wakeup: no array for four optionals.
        func earlier(_ a: Double?, _ b: Double?) -> Double? { a.map { first in b.map { Swift.min(first, $0) } ?? first } ?? b }
        return earlier(earlier(engine.nextDeadline, feedback?.nextDeadline),
                       earlier(performer.nextDeadline, reloader?.nextDeadline))
    }

    func addLastingDescriptors(to list: inout [Int32]) {
        if let descriptor = reloader?.descriptor { list.append(descriptor) }
    }

    func addPassingDescriptors(to list: inout [Int32]) {
        list.append(contentsOf: performer.descriptors)
    }

    func descriptorReady(_ descriptor: Int32) {
        if let reloader, descriptor == reloader.descriptor {
            if let outcome = reloader.watchReady(at: clock.now) { apply(outcome) }
            return
        }
        performer.descriptorReady(descriptor)
        takeVolumeReports(now: clock.now)
    }

    func signalReceived(_ signal: ReceivedSignal) {
        switch signal.number {
        case SIGHUP where terminal?.closed(by: signal) == true:
            guard !stopRequested else { return }
            stopRequested = true
            report(.stopping(signal: signal.number, reason: .terminalClosed))
        case SIGHUP:
            let watched = reloader?.watch?.path
            apply(reloader?.hangUp() ?? .unavailable)
            // A watch taken again (lost, or never made at start) is said, and published for
            // `calibrate --write`, which tells whether the bridge reads its edits.
            if let path = reloader?.watch?.path, path != watched {
                session.claim?.publish(watchedConfig: path, on: session.connection)
                report(.configurationWatched(path: path))
            }
        case SIGTSTP:
            suspend()
        default:
            guard !stopRequested else { return }
            stopRequested = true
            report(.stopping(signal: signal.number, reason: .signal))
        }
    }

    func xErrors(_ errors: [XProtocolError]) {
        // Refusals of the bridge's own touch choices are expected races, reported as such.
        let errors = session.absorb(pointerOwnership.absorb(touchOwnership.absorb(errors)))
        guard !errors.isEmpty else { return }
        for error in errors { report(.xError(error)) }
        // The feedback's own (another client destroyed its window): it starts its windows
        // afresh, and what the bridge holds is not concerned.
        guard !(feedback?.absorb(errors) ?? errors).isEmpty else { return }
        pointerOwnership.endAll(reason: "the X server reported an error")
        touchOwnership.endAll(reason: "the X server reported an error")
        // A failed request may have been a press or a release; nothing held can be trusted now.
        releaseHeld(reason: "the X server reported an error")
        rereadIfRejoined(at: clock.now)
    }

    var isStopping: Bool { stopRequested }
}

/// A knob whose center names a monitor that is not connected.
private struct MissingMonitor: Hashable {
    var binding: String
    var monitor: String
}
