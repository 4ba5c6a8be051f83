import GestureKit

/// Turns raw XI2 events into the engine's contacts.
///
/// - A pen, eraser or mouse has one contact, 0: it begins when its primary button goes down
///   (the tip; the physical button the maps make logical 1, `primaryButton`), moves while it
///   is down, and ends when that button comes up. A pen moving with the tip up hovers.
/// - Each touch of a touchscreen is its own contact, numbered by the server's touch id.
///
/// Only a slave's own raw events count (device == source): they keep arriving while a grab
/// freezes the master, which the ownership of presses relies on, and the masters relay
/// the same input a second time. Positions come from absolute valuators mapped onto the
/// screen; a relative device (a mouse) asks where the pointer is when it presses, and follows
/// its own deltas from there while pressed.
///
/// A value type with no X calls, so it can be driven with recorded events in tests. It keeps no
/// table of devices: the catalog is that (`DeviceCatalog`); of each device it listens to it
/// keeps only what decoding its events needs (`DeviceAxes`), taken when the device comes.
public struct XI2InputSource: Sendable {
    /// The last valuator values of a device (pen, mouse) or of one touch, in device units,
    /// indexed by valuator number: every event reads and writes it, so no hashing.
    struct AxisState: Sendable, Hashable {
        private var slots: [Double?] = []

        subscript(number: Int) -> Double? {
            get { number >= 0 && number < slots.count ? slots[number] : nil }
            set {
                guard number >= 0 else { return }
                if number >= slots.count {
                    guard newValue != nil else { return }
                    slots.append(contentsOf: repeatElement(nil, count: number - slots.count + 1))
                }
                slots[number] = newValue
            }
        }

        mutating func absorb(_ changes: [AxisValue]) {
            for change in changes { self[change.number] = change.value }
        }

        /// Takes only the axes `axes` marks absolute: relative ones carry deltas, not positions.
        mutating func absorbAbsolute(_ changes: [AxisValue], of axes: DeviceAxes) {
            for change in changes where axes.isAbsolute(change.number) { self[change.number] = change.value }
        }
    }

    /// What the hot path needs of a device, worked out once when it is added: its kind, whether
    /// its touches are screen positions, and its axes.
    struct DeviceAxes: Sendable {
        var id: Int
        var kind: DeviceKind?
        /// A touchscreen's touches are where they are on the screen; a touchpad's are not.
        var hasDirectTouch: Bool
        var xAxis: ValuatorAxis?
        var yAxis: ValuatorAxis?
        /// The pressure axis, only when its range spans something.
        var pressureAxis: ValuatorAxis?
        var hasAbsolutePosition: Bool
        /// A relative device whose x and y raw values are the pointer's deltas
        /// (`XI2InputSource.followsDeltas`): pressed, it follows them.
        var followsDeltas: Bool
        private var absolute: [Bool]

        init(_ device: X11Device) {
            id = device.id
            kind = device.kind
            hasDirectTouch = device.touch?.mode == .direct
            xAxis = device.xAxis
            yAxis = device.yAxis
            pressureAxis = device.pressureAxis.flatMap { $0.pressureRange == nil ? nil : $0 }
            hasAbsolutePosition = device.hasAbsolutePosition
            followsDeltas = !device.hasAbsolutePosition && [device.xAxis, device.yAxis].allSatisfy {
                $0.map(XI2InputSource.followsDeltas) == true
            }
            let numbers = device.valuators.map(\.number).filter { $0 >= 0 }
            absolute = Array(repeating: false, count: (numbers.max() ?? -1) + 1)
            for axis in device.valuators where axis.isAbsolute && axis.number >= 0 { absolute[axis.number] = true }
        }

        func isAbsolute(_ number: Int) -> Bool { number >= 0 && number < absolute.count && absolute[number] }
    }

    private struct TouchKey: Sendable, Hashable {
        var device: Int
        var touch: Int
    }

    public var screen: ScreenSize
    /// The monitors: a pen's or touchscreen's position where no monitor shows is where X holds
    /// the pointer, at the edge of the monitor it came from (`MonitorLayout.isContiguous`).
    /// Found in review: a tablet spanning a tall monitor and a shorter one reported its presses
    /// below the shorter one where no pointer was, and their ring and pulse, cut to a monitor,
    /// were drawn nowhere.
    public var monitors: MonitorLayout = .none {
        didSet {
            holdsOnMonitors = monitors.isContiguous
            lastMonitor.removeAll()
        }
    }
    private var holdsOnMonitors = false
    /// Per device with absolute positions, the monitor its last position was on.
    private var lastMonitor: [Int: ScreenRect] = [:]
    /// Hover samples in a row since the last contact event of another kind.
    public private(set) var hoverRun = 0
    /// Contacts that begin before this time are not followed, as those that began before the
    /// bridge started: made while it was stopped (`pause`), they went to the applications.
    /// An event's time is the server's stamp carried over (`ServerTimeline`), not its reading.
    public private(set) var followsFrom = -Double.infinity
    /// The devices listened to, by id.
    private var deviceAxes: [Int: DeviceAxes] = [:]
    private var axes: [Int: AxisState] = [:]
    /// Devices whose primary button is down, as this source has seen it, with the physical
    /// button that went down: its release ends the contact even if the maps changed meanwhile.
    private var pressed: [Int: Int] = [:]
    /// Per device, the physical button that is its primary (logical 1) where that is not
    /// button 1 (a left-handed mouse's right button), or nil where no button is: set by the
    /// listener from the button maps (`ButtonMap.primary`).
    private var primaries: [Int: Int?] = [:]
    private var touches: [TouchKey: AxisState] = [:]
    /// Where a relative device's contact was last seen, for when the pointer cannot be asked.
    private var pointerPositions: [Int: Point] = [:]

    public init(devices: [X11Device], screen: ScreenSize) {
        self.screen = screen
        for device in devices where device.isContactSource { add(device) }
    }

    /// Whether any contact is down: cheaper than `activeContacts` for a yes or no.
    public var hasContactsDown: Bool { !pressed.isEmpty || !touches.isEmpty }

    /// Whether the pen's or mouse's tip (its primary button) is down, as this source has seen it.
    public func isTipDown(_ device: Int) -> Bool { pressed[device] != nil }

    /// The physical button that begins `device`'s contact: the one its button maps make logical
    /// 1, button 1 unless `setPrimaryButton` said otherwise; nil when no button does.
    public func primaryButton(of device: Int) -> Int? { primaries[device] ?? 1 }

    /// Whether `button` (physical, as raw events say) is `device`'s tip or the one that began
    /// its contact down now.
    public func isTip(_ button: Int, of device: Int) -> Bool {
        pressed[device].map { $0 == button } ?? (primaryButton(of: device) == button)
    }

    /// Takes `device`'s primary button (`ButtonMap.primary`) from its maps; a contact down
    /// still ends with the button that began it.
    public mutating func setPrimaryButton(_ button: Int?, of device: Int) {
        primaries[device] = button == 1 ? nil : .some(button)
    }

    /// Whether `values` (valuator number to value) differ from what `device`'s axes last said,
    /// on the axes they said anything of: a sample read from the server that repeats them says
    /// nothing new.
    func differ(_ values: [Int: Double], for device: Int) -> Bool {
        values.contains { number, value in axes[device]?[number].map { $0 != value } ?? false }
    }

    /// Of a device's queried valuator values, those of its absolute axes: a relative axis's
    /// current value is where the server has it, not a delta a motion carries.
    func absoluteValues(_ values: [Int: Double], of device: Int) -> [Int: Double] {
        guard let layout = deviceAxes[device] else { return [:] }
        return values.filter { layout.isAbsolute($0.key) }
    }

    /// Contacts currently down.
    public var activeContacts: [ContactKey] {
        (pressed.keys.map { ContactKey(device: $0, contact: 0) } + touches.keys.map { ContactKey(device: $0.device, contact: $0.touch) })
            .sorted()
    }

    /// Whether the source listens to the device `id`: it was added, and not removed since.
    public func listens(to id: Int) -> Bool { deviceAxes[id] != nil }

    /// Starts listening to `device`, or takes its new axis ranges.
    public mutating func add(_ device: X11Device) {
        guard device.isContactSource else { return }
        deviceAxes[device.id] = DeviceAxes(device)
        // The queried values are where the device is now: a press before any motion needs them.
        var state = axes[device.id] ?? AxisState()
        for axis in device.valuators where axis.isAbsolute && state[axis.number] == nil {
            state[axis.number] = axis.value
        }
        axes[device.id] = state
    }

    /// Stops listening to a device; its contacts still down are cancelled where they were.
    public mutating func remove(_ id: Int, at time: Double, pointer: () -> Point? = { nil }) -> [ContactEvent] {
        var events: [ContactEvent] = []
        if let layout = deviceAxes[id] {
            if pressed[id] != nil {
                events.append(contact(layout, contact: 0, phase: .cancel, state: axes[id], time: time, pointer: pointer))
            }
            for key in touches.keys.sorted(by: { $0.touch < $1.touch }) where key.device == id {
                events.append(contact(layout, contact: key.touch, phase: .cancel, state: touches[key], time: time, pointer: pointer))
            }
        }
        hoverRun = 0
        deviceAxes[id] = nil
        axes[id] = nil
        pointerPositions[id] = nil
        pressed[id] = nil
        primaries[id] = nil
        touches = touches.filter { $0.key.device != id }
        return events
    }

    /// Cancels every contact down, where it was, and follows no contact that begins until
    /// `resume`: the bridge stops a while (Ctrl-Z), and the input made meanwhile is the
    /// applications'. The devices stay listened to.
    public mutating func pause(at time: Double) -> [ContactEvent] {
        var events: [ContactEvent] = []
        for id in pressed.keys.sorted() {
            if let layout = deviceAxes[id] {
                events.append(contact(layout, contact: 0, phase: .cancel, state: axes[id], time: time, pointer: { nil }))
            }
        }
        for key in touches.keys.sorted(by: { ($0.device, $0.touch) < ($1.device, $1.touch) }) {
            if let layout = deviceAxes[key.device] {
                events.append(contact(layout, contact: key.touch, phase: .cancel, state: touches[key], time: time, pointer: { nil }))
            }
        }
        pressed.removeAll()
        touches.removeAll()
        hoverRun = 0
        followsFrom = .infinity
        return events
    }

    /// Follows the contacts that begin at `time` or later again, after `pause`.
    public mutating func resume(followingFrom time: Double) {
        followsFrom = time
    }

    /// Stops listening to every device; the contacts still down are cancelled where they were.
    public mutating func removeAll(at time: Double) -> [ContactEvent] {
        var events: [ContactEvent] = []
        for id in deviceAxes.keys.sorted() { events += remove(id, at: time) }
        return events
    }

    /// The contact events one raw event makes: none, or one.
    public mutating func handle(_ raw: RawInput, at time: Double, pointer: () -> Point? = { nil }) -> [ContactEvent] {
        guard raw.device == raw.source, let layout = deviceAxes[raw.device] else { return [] }
        // A touchscreen's emulated pointer events repeat its touches, which arrive as touch events.
        if raw.isPointerEmulated { return [] }
        let events: [ContactEvent]
        switch raw.kind {
        case .motion, .buttonPress, .buttonRelease:
            events = handlePointer(raw, layout: layout, time: time, pointer: pointer)
        case .touchBegin, .touchUpdate, .touchEnd:
            events = handleTouch(raw, layout: layout, time: time, pointer: pointer)
        }
        if events.contains(where: { $0.phase != .hover }) { hoverRun = 0 }
        return events
    }

    private mutating func handlePointer(_ raw: RawInput, layout: DeviceAxes, time: Double,
                                        pointer: () -> Point?) -> [ContactEvent] {
        // Relative axes carry deltas, not positions: only absolute values are kept. Changed in
        // place, so the stored state is never copied.
        axes[layout.id, default: AxisState()].absorbAbsolute(raw.axisValues, of: layout)
        let state = axes[layout.id]
        let isDown = pressed[layout.id] != nil
        switch raw.kind {
        case .motion:
            if isDown {
                if layout.followsDeltas, let moved = movedRelatively(raw, layout: layout) {
                    return [contact(layout, contact: 0, phase: .move, state: state, time: time, pointer: { moved })]
                }
                return [contact(layout, contact: 0, phase: .move, state: state, time: time, pointer: pointer)]
            }
            guard layout.kind?.isPen == true else { return [] }
            hoverRun += 1
            return [contact(layout, contact: 0, phase: .hover, state: state, time: time, pointer: pointer)]
        case .buttonPress:
            // The primary button is the tip; a pen's side buttons and the wheel are not contacts.
            guard raw.detail == primaryButton(of: layout.id), !isDown, time >= followsFrom else { return [] }
            pressed[layout.id] = raw.detail
            return [contact(layout, contact: 0, phase: .begin, state: state, time: time, pointer: pointer)]
        case .buttonRelease:
            // A release without a press seen: the press happened before the bridge started.
            guard isDown, raw.detail == pressed[layout.id] else { return [] }
            pressed[layout.id] = nil
            // A relative device that follows its deltas lifts where they took it (`movedRelatively`).
            let followed = layout.followsDeltas && pointerPositions[layout.id] != nil
            return [contact(layout, contact: 0, phase: .end, state: state, time: time, pointer: followed ? { nil } : pointer)]
        case .touchBegin, .touchUpdate, .touchEnd:
            return []
        }
    }

    /// Where a device that follows its deltas (`DeviceAxes.followsDeltas`) is after `raw`'s
    /// motion: where it was, moved by the event's deltas (the server's, accelerated as the
    /// pointer's would be), within the screen. The pointer cannot be asked: while the bridge
    /// holds the press its master stands still, and a gesture that won it keeps it so (a knob
    /// turned with a mouse). Nil before the contact has a position.
    private func movedRelatively(_ raw: RawInput, layout: DeviceAxes) -> Point? {
        guard let from = pointerPositions[layout.id], let xAxis = layout.xAxis, let yAxis = layout.yAxis else { return nil }
        var dx = 0.0, dy = 0.0
        for change in raw.axisValues where !layout.isAbsolute(change.number) {
            if change.number == xAxis.number { dx = change.value }
            if change.number == yAxis.number { dy = change.value }
        }
        let maxX = Swift.max(0, screen.width - 1), maxY = Swift.max(0, screen.height - 1)
        return Point(x: Swift.min(Swift.max(from.x + dx, 0), maxX), y: Swift.min(Swift.max(from.y + dy, 0), maxY))
    }

    /// Whether a relative axis's raw values are the pointer's deltas: one with no range (a
    /// mouse: libinput's `Rel X`), or one labelled relative (synaptics gives its touchpad's `Rel X`
    /// the pad's range). An absolute tablet set to relative mode keeps its `Abs X` label and
    /// range, and its raw values are device units, where the device is after its first motion
    /// rather than how far it moved (measured with xf86-input-evdev): followed as deltas, a
    /// stroke ran off to the screen's corner.
    static func followsDeltas(_ axis: ValuatorAxis) -> Bool {
        axis.max <= axis.min || axis.label.hasPrefix("Rel ")
    }

    private mutating func handleTouch(_ raw: RawInput, layout: DeviceAxes, time: Double,
                                      pointer: () -> Point?) -> [ContactEvent] {
        // A touchpad's touches are not screen positions; its pointer motion is a mouse's job.
        guard layout.hasDirectTouch else { return [] }
        let key = TouchKey(device: layout.id, touch: raw.detail)
        switch raw.kind {
        case .touchBegin:
            guard time >= followsFrom else { return [] }
            var state = touches[key] ?? axes[layout.id] ?? AxisState()
            state.absorb(raw.axisValues)
            touches[key] = state
            axes[layout.id] = state
            return [contact(layout, contact: raw.detail, phase: .begin, state: state, time: time, pointer: pointer)]
        case .touchUpdate, .touchEnd:
            // A touch that began before the bridge started is not followed.
            guard touches[key] != nil else { return [] }
            touches[key]?.absorb(raw.axisValues)
            let state = touches[key]
            axes[layout.id] = state
            if raw.kind == .touchEnd {
                touches[key] = nil
                return [contact(layout, contact: raw.detail, phase: .end, state: state, time: time, pointer: pointer)]
            }
            return [contact(layout, contact: raw.detail, phase: .move, state: state, time: time, pointer: pointer)]
        case .motion, .buttonPress, .buttonRelease:
            return []
        }
    }

    private mutating func contact(_ layout: DeviceAxes, contact: Int, phase: ContactPhase,
                                  state: AxisState?, time: Double, pointer: () -> Point?) -> ContactEvent {
        let values = state ?? AxisState()
        var position = Point(x: 0, y: 0)
        if layout.hasAbsolutePosition, let xAxis = layout.xAxis, let yAxis = layout.yAxis {
            position = AxisMapping.point(x: values[xAxis.number] ?? xAxis.min, y: values[yAxis.number] ?? yAxis.min,
                                         xAxis: xAxis, yAxis: yAxis, screen: screen)
            if holdsOnMonitors { position = heldOnMonitors(position, device: layout.id) }
        } else if let here = pointer() ?? pointerPositions[layout.id] {
            position = here
            pointerPositions[layout.id] = here
        }
        var pressure: Double?
        if let axis = layout.pressureAxis {
            // A device with a pressure axis that has not reported it yet is not pressing.
            pressure = Self.traceExact(values[axis.number] ?? axis.min)
        }
        position = Point(x: Self.traceExact(position.x), y: Self.traceExact(position.y))
        return ContactEvent(time: time, device: layout.id, contact: contact, phase: phase, position: position, pressure: pressure)
    }

    /// `point`, or where X holds the pointer when no monitor shows it: at the edge of the monitor
    /// the device was last on, or of the nearest.
    private mutating func heldOnMonitors(_ point: Point, device: Int) -> Point {
        if let shown = monitors.monitors.first(where: { $0.frame.contains(point) }) {
            lastMonitor[device] = shown.frame
            return point
        }
        guard let frame = lastMonitor[device] ?? monitors.monitor(at: point)?.frame else { return point }
        return frame.clamped(point)
    }

    /// A value as a trace stores it: JSONLine writes numbers rounded to millionths. Contacts
    /// carry exactly that value live too, so a recording replays to the very same decisions:
    /// a knob step that lands on a sample would otherwise fall either side of it.
    public static func traceExact(_ value: Double) -> Double {
        guard value.isFinite else { return value }
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        return rounded == 0 ? 0 : rounded
    }
}
