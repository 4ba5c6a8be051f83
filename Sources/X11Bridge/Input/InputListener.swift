import GestureKit

/// The X side of listening: selects the events, keeps the device catalog current through
/// hot-plug, and turns X events into contacts. `run` and `record` share it, so a recording
/// holds exactly the contacts the live engine sees.
public final class InputListener {
    public let connection: XConnection
    /// Every device there is: the one table of devices (`device(_:)` for those listened to).
    public private(set) var catalog: DeviceCatalog
    public private(set) var source: XI2InputSource
    /// Whether a contact's begin on the device (by id) names the application window under it.
    /// Only bindings limited to some applications need it, and it costs round trips, so it is
    /// asked for the devices such a binding listens to alone (the built-in long press's, for
    /// touchscreens without pressure: never a pen's press).
    public var identifiesWindows: (Int) -> Bool = { _ in false }
    /// Pens and mice whose motion the server does not send for now: each is in a stroke that
    /// nothing follows any more (`stopMotion`). Their buttons keep coming, and the lift
    /// brings the motion back (not for those in `motionUnread`).
    public private(set) var unheardMotion: Set<Int> = []
    /// Mice and touchpads whose motion no gesture reads (`readMotion(except:)`): the server
    /// sends their buttons, never their motion.
    public private(set) var motionUnread: Set<Int> = []
    /// Per pen or mouse whose motion a lift brought back, the serial of the request that did:
    /// a press the server made before taking it (pressed again at once, the bridge busy) lost
    /// the motion in between, a deep press's push among it (`catchUpMotion`).
    private var motionBackAt: [Int: UInt32] = [:]
    /// Pens and mice whose press came before their motion was heard again (`motionBackAt`).
    private var motionLost: Set<Int> = []
    /// The screen's monitors (RandR 1.5), read at `start` and again when the screen changes.
    public private(set) var monitors: MonitorLayout = .none
    private let randr: RandRMonitors
    /// Input's own times, from the server's timestamps (`ServerTimeline`).
    private var timeline: ServerTimeline
    /// Which touch a press the server made from a touch belongs to.
    private var touchBegins = TouchBegins()
    /// Pens not listened to because they are relative (`xsetwacom set … Mode Relative`), heard
    /// as they press (`DeviceCatalog.relativePens`), and when each was last asked whether it is
    /// absolute again: setting the mode sends no event.
    private var relativePensCheckedAt: [Int: Double] = [:]
    /// This bridge's claim on the screen, whose loss `handle` tells (`InstanceClaim`).
    public var claim: InstanceClaim?
    /// The serial of the event `handle` read last (`XCBEvent.serial`): the changes it returned
    /// happened after the requests below it took effect.
    public private(set) var lastSerial: UInt32 = 0
    /// Whether `start` asks for the root's property changes, for `.resourcesChanged`: set
    /// before it, where feedback is drawn or gestures are measured (both follow the desktop's
    /// scale, `DesktopScale`).
    public var hearsResourceChanges = false
    /// Each pen's or mouse's buttons down other than the tip and the wheel, from its raw events.
    private var otherButtonsDown: [Int: Set<Int>] = [:]
    /// The button maps of the contact sources, their masters and the XTEST pointer, by device,
    /// as the server last said (`ButtonMap`): where they make another button than 1 the
    /// person's primary, that button is the tip (`XI2InputSource.primaryButton`), and the
    /// bridge's clicks are sent as the buttons that arrive as the ones named (`XConnection.outputButtons`).
    private var buttonMaps: [Int: ButtonMap] = [:]
    /// The devices whose map changes are selected now.
    private var buttonMapSelection: Set<Int> = []
    /// The latest `selectRawInput(of:)` requests, refused where the device is gone already.
    private var deviceSelections = DeviceGoneRequests()
    /// Rings when a contact of a device listened to begins or ends (`EventLoop`); it listens to
    /// the same devices as the session, through hot-plug. Set before the loop starts.
    var contactBell: ContactBell? {
        didSet {
            contactBell?.listen(to: Set(catalog.contactSources.map(\.id)))
            contactBell?.confirm()
        }
    }


    public init(connection: XConnection) {
        self.connection = connection
        let catalog = DeviceCatalog.query(connection)
        self.catalog = catalog
        self.source = XI2InputSource(devices: catalog.contactSources, screen: connection.screenSize)
        self.randr = RandRMonitors(connection: connection)
        self.timeline = ServerTimeline(drift: connection.isLocal ? 0 : ServerTimeline.remoteDrift)
    }

    public var screen: ScreenSize { source.screen }

    /// The device `id`, while the session listens to it: a contact source, not yet removed (a
    /// hot-plug, or `cancelAll` as the bridge stops). Its contacts' decisions after that are no
    /// device's: what is still held is let go with the grabs.
    public func device(_ id: Int) -> X11Device? {
        source.listens(to: id) ? catalog.contactSource(id) : nil
    }

    /// Starts the flow of events. Only after this returns does input reach the bridge; read
    /// `catalog` after it, since devices may have come between the first query and the selection.
    public func start() throws(BridgeSetupError) {
        try connection.select(XI2EventMask.listening(toRawInputOf: catalog.contactSources.map(\.id),
                                                     pressesOf: catalog.relativePens.map(\.id)), on: connection.root)
        // The root's size changes with RandR; absolute devices map onto the new size. Monitors
        // added, moved or deleted send the root a ConfigureNotify too.
        connection.selectStructureChanges(on: connection.root, properties: hearsResourceChanges)
        randr.selectChanges()
        // Devices plugged in between the first query and the selection would go unseen; so
        // would a monitor added meanwhile (a desktop applying its saved layout at login), whose
        // root size the positions are scaled to.
        connection.sync()
        _ = refreshCatalog(at: 0)
        rereadButtonMaps()
        source.screen = connection.screenSize
        monitors = randr.read()
        source.monitors = monitors
    }

    /// What `event`, read at `now`, means; nothing for events the bridge does not use. A
    /// contact's samples carry the time the server stamped them with, on the bridge's clock
    /// (`ServerTimeline`); everything else is dated `now`.
    public func handle(_ event: borrowing XCBEvent, readAt now: Double) -> [InputChange] {
        let time = now
        lastSerial = event.serial
        if let decoded = connection.decodeXI2(event) {
            switch decoded {
            case .raw(let raw):
                let time = timeline.time(ofStamp: raw.serverTime, readAt: now)
                if raw.kind == .touchBegin, raw.device == raw.source {
                    touchBegins.began(device: raw.device, touch: raw.detail, stamp: raw.serverTime)
                }
                // Buttons only: a touch's detail is its touch id, a motion's nothing.
                let isButton = raw.kind == .buttonPress || raw.kind == .buttonRelease
                let isTip = isButton && source.isTip(raw.detail, of: raw.device)
                if raw.kind == .buttonRelease, isTip, raw.device == raw.source, unheardMotion.remove(raw.device) != nil,
                   !motionUnread.contains(raw.device) {
                    motionBackAt[raw.device] = UInt32(truncatingIfNeeded: connection.nextRequestSerial)
                    selectRawInput(of: raw.device)
                }
                let device = raw.device
                // Another device's button (a mouse's right button or wheel) pressed while a pen's
                // or mouse's press on the same master is down: where the bridge holds that press
                // back, this press waits behind it in the frozen master, and a claim would thaw
                // the master into the bridge's own grab, which swallows it. The held press goes
                // on to the application first, then this one, as without the bridge.
                let beside = raw.kind == .buttonPress && raw.device == raw.source && !isTip
                    ? tipsDown(besides: device).map { InputChange.anotherButton(device: $0, time: time) } : []
                if isButton, raw.device == raw.source, !isTip,
                   !Self.wheelButtons.contains(raw.detail) {
                    if raw.kind == .buttonRelease {
                        otherButtonsDown[device]?.remove(raw.detail)
                        return []
                    }
                    otherButtonsDown[device, default: []].insert(raw.detail)
                    return (source.isTipDown(device) ? [.anotherButton(device: device, time: time)] : []) + beside
                }
                if raw.kind == .buttonPress, isTip, raw.device == raw.source, let back = motionBackAt.removeValue(forKey: device) {
                    // Made before its motion was heard again: what came between is lost
                    // (`catchUpMotion`).
                    if Int32(bitPattern: event.serial &- back) < 0 { motionLost.insert(device) } else { motionLost.remove(device) }
                }
                // Per raw event: the lookup that rules out a device listened to comes first.
                if raw.device == raw.source, !source.listens(to: device), let known = catalog[device], known.kind == nil,
                   known.type == .stylus || known.type == .eraser {
                    return penBackToAbsolute(device, at: time) ? refreshCatalog(at: time) : []
                }
                let contacts = source.handle(raw, at: time, pointer: { [connection, catalog] in
                    connection.queryPointer(master: catalog[device]?.master ?? 2)?.position
                }).map { event in
                    guard event.phase == .begin, identifiesWindows(event.device) else { return InputChange.contact(event) }
                    var named = event
                    named.window = connection.windowClass(at: event.position)
                    return .contact(named)
                }
                // Per raw motion: no array made but the one handle returns.
                return beside.isEmpty ? contacts : beside + contacts
            case .hierarchyChanged(_, _, let left):
                // A device disabled and enabled again before the catalog is read looks unchanged
                // in it; the event says it went, and it goes and comes back for the bridge too.
                return refreshCatalog(at: time, leftMeanwhile: Set(left))
            case .deviceChanged(let device, let reason):
                // A master switching between its slaves is routine; only a slave's own change matters.
                guard reason == .deviceChange, catalog[device]?.use.isSlave == true else { return [] }
                return refreshCatalog(at: time)
            case .propertyChanged(let device, let property):
                // A pen or touchscreen mapped to another part of the screen (the desktop maps
                // a touchscreen to its monitor just after it comes, and again as monitors change).
                guard catalog.contactSource(device) != nil, connection.atomName(property) == DeviceCatalog.matrixProperty else { return [] }
                return refreshCatalog(at: time)
            case .grabbedPointer(let grabbed):
                let touch = grabbed.kind == .buttonPress && grabbed.isPointerEmulated
                    ? touchBegins.touch(of: grabbed.source, begunAt: grabbed.serverTime) : nil
                return [.grabbedPointer(grabbed, emulating: touch)]
            case .grabbedTouch(let grabbed):
                return [.grabbedTouch(grabbed)]
            case .unhandled:
                return []
            }
        }
        switch connection.decodeSessionEvent(event, randr: randr) {
        case .rootConfigured(let size)?:
            var changes: [InputChange] = []
            if size != source.screen {
                source.screen = size
                changes.append(.screenResized(size))
            }
            return changes + rereadMonitors()
        case .mappingChanged(let change)?:
            connection.refreshKeyboardMapping(change)
            return []
        case .buttonMapChanged(let device)?:
            // The core pointer map is the masters'; a device's own is its alone.
            rereadButtonMaps(of: device.map { [$0] } ?? buttonMaps.keys.filter { catalog[$0]?.use == .masterPointer })
            return []
        case .screenChanged?:
            return rereadMonitors()
        case .keymapChanged?:
            connection.refreshKeymap()
            return []
        case .resourcesChanged?:
            return [.resourcesChanged]
        case .selectionCleared(let selection, let window)?:
            return claim?.isLost(selection: selection, window: window, on: connection) == true ? [.takenOver] : []
        case nil:
            return []
        }
    }

    /// Time has been handled up to `now` (timers fired): input read later is dated no earlier,
    /// so nothing reaches the engine before what it has already done.
    public func timePassed(_ now: Double) {
        _ = timeline.time(ofStamp: 0, readAt: now)
    }

    /// Stops the motion of a pen or mouse whose tip is down, until the lift of button 1
    /// restarts it by itself (`handle`): a stroke no gesture follows any more (a drag no deep
    /// press can become) then costs the bridge no wakeup for the rest of it, and a hovering pen
    /// is heard again, its position being where the next press begins. True when it stopped
    /// now; false for a device that is not a pen or mouse, or whose motion was already stopped.
    ///
    /// Only for the rest of a stroke: motion stopped before a press and restarted by it would
    /// lose the samples that come before the server takes the request, a deep press's first
    /// push among them.
    @discardableResult
    public func stopMotion(of device: Int) -> Bool {
        guard let kind = self.device(device)?.kind, kind == .pen || kind == .eraser || kind == .mouse,
              unheardMotion.insert(device).inserted else { return false }
        // A device whose motion is unread for good is asked nothing: the server sends none.
        if !motionUnread.contains(device) { selectRawInput(of: device) }
        return true
    }

    /// Where a pen or mouse is now and how hard it presses, read once from the server, when
    /// its press came before its motion was heard again: the motion between is lost (pressed
    /// again at once after a stroke nothing followed, the bridge busy), a deep press's push
    /// among it. Asked once the press's grabbed event has come, so the bridge holds it; nothing
    /// for any other device. One round trip.
    public func catchUpMotion(of device: Int, at time: Double) -> [ContactEvent] {
        guard motionLost.remove(device) != nil, source.isTipDown(device),
              let current = DeviceCatalog.currentValuators(of: device, on: connection) else { return [] }
        let values = source.absoluteValues(current, of: device)
        guard source.differ(values, for: device) else { return [] }
        let now = RawInput(kind: .motion, device: device, source: device, detail: 0, valuators: values)
        return source.handle(now, at: time) { [connection, catalog] in
            connection.queryPointer(master: catalog[device]?.master ?? 2)?.position
        }
    }

    /// The monitors again, after the screen changed: a change when they differ.
    private func rereadMonitors() -> [InputChange] {
        let layout = randr.read()
        guard layout != monitors else { return [] }
        monitors = layout
        source.monitors = layout
        return [.monitorsChanged(layout)]
    }

    /// Reads the button maps of the contact sources, their masters and the XTEST pointer again
    /// (one is changed, or the devices), and hears their changes from now on: 3 round trips each.
    /// `fresh`: devices that came, or came again, whose maps may be new. Maps already read stay
    /// as the mapping events keep them (a touchscreen mapped anew as monitors change reads none).
    private func rereadButtonMaps(fresh: [Int] = []) {
        let devices = catalog.contactSources
        let ids = Set(devices.map(\.id) + devices.compactMap(\.master) + [catalog.xtestPointer?.id, catalog.xtestPointer?.master].compactMap { $0 })
        buttonMaps = buttonMaps.filter { ids.contains($0.key) }
        if ids != buttonMapSelection {
            // A device gone meanwhile refuses the selection: the hierarchy change that tells it comes next.
            _ = connection.selectButtonMapChanges(of: ids.sorted())
            buttonMapSelection = ids
        }
        rereadButtonMaps(of: ids.filter { buttonMaps[$0] == nil || fresh.contains($0) }.sorted())
    }

    /// Reads `devices`' button maps again, and takes the tips and the XTEST pointer's buttons
    /// they make.
    private func rereadButtonMaps(of devices: [Int]) {
        for id in devices {
            buttonMaps[id] = connection.buttonMap(of: id)
        }
        for device in catalog.contactSources {
            let own = buttonMaps[device.id] ?? .identity
            source.setPrimaryButton(own.then(device.master.flatMap { buttonMaps[$0] } ?? .identity).primary, of: device.id)
        }
        if let xtest = catalog.xtestPointer {
            connection.outputButtons = (buttonMaps[xtest.id] ?? .identity).then(xtest.master.flatMap { buttonMaps[$0] } ?? .identity)
        }
    }

    /// The wheel's buttons, up, down, left, right: each press comes with its release, so none
    /// is held beside the tip.
    static let wheelButtons = 4...7

    /// The pens and mice other than `device` whose tip (button 1) is down on `device`'s master.
    private func tipsDown(besides device: Int) -> [Int] {
        // Only a device listened to: the bridge's own clicks come through the XTEST device.
        guard let master = catalog.contactSource(device)?.master else { return [] }
        return catalog.contactSources.filter { $0.id != device && $0.master == master && source.isTipDown($0.id) }.map(\.id)
    }

    /// Whether a pen or mouse on `master` holds a button down other than its tip and the wheel
    /// (a side button held to pan): X then gives a tip's press to the application, not to the
    /// bridge's grab, which only the master's first button down activates.
    public func holdsOtherButtons(onMaster master: Int) -> Bool {
        otherButtonsDown.contains { !$0.value.isEmpty && catalog[$0.key]?.master == master }
    }

    /// Cancels every contact down and follows none that begins until `resume`: the bridge
    /// stops a while (Ctrl-Z). The devices stay listened to.
    public func pause(at time: Double) -> [ContactEvent] {
        source.pause(at: time)
    }

    /// Follows the contacts that begin at `time` or later again, after `pause`.
    public func resume(followingFrom time: Double) {
        source.resume(followingFrom: time)
    }

    /// Cancels the contacts of every device and forgets them: for a clean stop.
    public func cancelAll(at time: Double) -> [ContactEvent] {
        source.removeAll(at: time)
    }

    /// Whether a pen heard while it counts as relative is absolute again: asked once a second
    /// at most, one round trip each.
    private func penBackToAbsolute(_ device: Int, at time: Double) -> Bool {
        if let last = relativePensCheckedAt[device], time - last < 1 { return false }
        relativePensCheckedAt[device] = time
        guard DeviceCatalog.hasAbsolutePosition(device, on: connection) else { return false }
        relativePensCheckedAt[device] = nil
        return true
    }

    /// Reads the device list again, when the bridge knows it changed without a hierarchy event
    /// (a device it grabbed on its own, which X showed floating, is back on its master).
    public func rereadDevices(at time: Double) -> [InputChange] {
        refreshCatalog(at: time)
    }

    private func refreshCatalog(at time: Double, leftMeanwhile: Set<Int> = []) -> [InputChange] {
        let updated = DeviceCatalog.query(connection)
        let changes = updated.changes(since: catalog, leftMeanwhile: leftMeanwhile)
        catalog = updated
        guard !changes.isEmpty else { return [] }
        var result: [InputChange] = []
        for device in changes.removed {
            result += source.remove(device.id, at: time).map(InputChange.contact)
            unheardMotion.remove(device.id)
            otherButtonsDown[device.id] = nil
        }
        for device in changes.removed + changes.updated {
            // An id X gives the next device plugged in: heard until the bindings say otherwise.
            motionUnread.remove(device.id)
        }
        for device in changes.added + changes.updated {
            source.add(device)
            // What its raw input said of its buttons before may not hold any more.
            otherButtonsDown[device.id] = nil
        }
        selectRawInput()
        rereadButtonMaps(fresh: (changes.added + changes.updated).map(\.id))
        result.append(.devices(changes))
        return result
    }

    /// Stops the motion of the mice and touchpads in `devices` for good, and hears it again
    /// from those no longer in it: those no binding listens to, which no gesture reads, so
    /// that one moving all day costs the bridge no wakeup. Their buttons keep coming (another
    /// device's press beside a held one, `anotherButton`). A pen's hovering is heard bound or
    /// not: the palm rule reads it. Only what changed is asked of the server.
    public func readMotion(except devices: Set<Int>) {
        let unread = devices.filter { catalog.contactSource($0).map { $0.kind == .mouse || $0.kind == .touchpad } ?? false }
        guard unread != motionUnread else { return }
        motionUnread = unread
        selectRawInput()
    }

    /// Listens to the raw input of the contact sources there are now. A device gone again
    /// before the request arrives fails it whole: then every device's raw input is taken.
    private func selectRawInput() {
        contactBell?.listen(to: Set(catalog.contactSources.map(\.id)))
        do {
            try connection.select(XI2EventMask.listening(toRawInputOf: catalog.contactSources.map(\.id),
                                                         unheardMotion: unheardMotion.union(motionUnread),
                                                         pressesOf: catalog.relativePens.map(\.id)),
                                  on: connection.root)
        } catch {
            unheardMotion = []
            motionUnread = []
            try? connection.select([.rootListening], on: connection.root)
        }
    }

    /// Changes one device's selection, leaving the others' as they are. No round trip: a device
    /// gone meanwhile (unplugged mid-stroke: X releases its buttons, then removes it, before the
    /// selection made for that release arrives) makes an X error, which `absorb` takes back.
    func selectRawInput(of device: Int) {
        deviceSelections.noteNext(on: connection)
        connection.selectUnchecked(XI2EventMask.rawInput(of: device, motion: !unheardMotion.contains(device) && !motionUnread.contains(device)),
                                   on: connection.root)
    }

    /// The errors that are not refusals of `selectRawInput(of:)`: such a refusal is a device gone
    /// meanwhile, which the hierarchy change tells, not a fault that should make the bridge let
    /// go of what it holds.
    public func absorb(_ errors: [XProtocolError]) -> [XProtocolError] {
        deviceSelections.absorb(errors)
    }
}
