/// A recognizer with its settings, as a binding names it.
public enum RecognizerSettings: Sendable, Hashable {
    case force(ForceRecognizer.Configuration)
    case deepPress(DeepPressRecognizer.Configuration)
    case squeeze(SqueezeRecognizer.Configuration)
    case pressureThresholds(PressureThresholdsRecognizer.Configuration)
    case knob(KnobSettings)
    case longPress(LongPressRecognizer.Configuration)

    public var kind: RecognizerKind {
        switch self {
        case .force: return .force
        case .deepPress: return .deepPress
        case .squeeze: return .squeeze
        case .pressureThresholds: return .pressureThresholds
        case .knob: return .knob
        case .longPress: return .longPress
        }
    }

    /// How far a contact may move before this gesture gives up on it, in pixels at scale 1;
    /// nil for one that follows movement (a knob) or ignores it (force, thresholds).
    public var slop: Double? {
        switch self {
        case .deepPress(let configuration): configuration.slop
        case .squeeze(let configuration): configuration.slop
        case .longPress(let configuration): configuration.slop
        case .force, .pressureThresholds, .knob: nil
        }
    }

    /// A fresh recognizer for one contact.
    /// `area`: the part of the screen the contact's device is mapped to (nil: all of it).
    /// `scale`: the desktop's scale where the contact went down (`DesktopScale`): the config's
    /// pixel distances (a slop, a knob's center and radii) are pixels at scale 1, multiplied by it.
    public func makeRecognizer(screen: ScreenSize, monitors: MonitorLayout = .none, area: MappedArea? = nil,
                               scale: Double = 1) -> any GestureRecognizer {
        switch self {
        case .force(let configuration): return ForceRecognizer(configuration)
        case .deepPress(var configuration):
            configuration.slop *= scale
            return DeepPressRecognizer(configuration)
        case .squeeze(var configuration):
            configuration.slop *= scale
            return SqueezeRecognizer(configuration)
        case .pressureThresholds(let configuration): return PressureThresholdsRecognizer(configuration)
        case .knob(let settings): return KnobRecognizer(settings.resolve(screen: screen, monitors: monitors, area: area, scale: scale))
        case .longPress(var configuration):
            configuration.slop *= scale
            return LongPressRecognizer(configuration)
        }
    }
}

/// A knob as configured: its center may be measured from the right or bottom edge of the
/// root window, or of a monitor named in the config.
public struct KnobSettings: Sendable, Hashable {
    public var centerX: ScreenCoordinate
    public var centerY: ScreenCoordinate
    /// The monitor (RandR's name) whose corners the center is measured from; nil: the root's.
    public var monitor: String?
    public var innerRadius: Double
    public var outerRadius: Double
    /// Degrees to turn before the knob begins (0: it begins when the contact goes down).
    public var activation: Double

    public init(centerX: ScreenCoordinate, centerY: ScreenCoordinate, monitor: String? = nil,
                innerRadius: Double? = nil, outerRadius: Double = Keys.outerRadius.standard,
                activation: Double = Keys.activation.standard) {
        self.centerX = centerX
        self.centerY = centerY
        self.monitor = monitor
        self.innerRadius = innerRadius ?? Keys.innerRadius.standard(following: outerRadius)
        self.outerRadius = outerRadius
        self.activation = activation
    }

    /// The knob on this screen. A center on a monitor that is not connected is measured
    /// from the root's corners instead (`missingMonitor` names it). A center measured from
    /// the root's corners that falls on no monitor (the root's top-right corner is dark when
    /// a wide monitor sits below a narrower one) is measured from the corners of the monitor
    /// nearest it: a knob nobody can see or reach is no knob. So is one whose ring runs off the
    /// monitor it is on (a right-hand monitor set a little lower, to line up the bezels) where
    /// measured from that monitor's own corners the whole ring is on it.
    /// For a device mapped to part of the screen (`area`: a touchscreen mapped to its own
    /// monitor) a center not on a named monitor that falls outside that part is measured from
    /// that part's corners instead, where that puts it inside: the knob is where the device
    /// reaches. A center the device reaches stays where it is (`[2600, 900]` on the right-hand
    /// monitor a touchscreen is mapped to).
    /// `scale`: the desktop's scale (`DesktopScale`). The center's coordinates are distances
    /// from the edges of the root, of the named monitor or of the device's area, and the radii
    /// are distances too: all are pixels at scale 1, multiplied by it, so the ring sits as far
    /// in from its corner, and is as large, in millimetres on every desktop. A center that
    /// scaled would fall outside the frame it is measured on (a config written in the screen's
    /// own pixels before the scale applied: `[3600, 1900]` on a 3840x2160 panel at scale 2)
    /// stays unscaled, where it was.
    public func resolve(screen: ScreenSize, monitors: MonitorLayout = .none, area: MappedArea? = nil,
                        scale: Double = 1) -> KnobRecognizer.Configuration {
        let innerRadius = self.innerRadius * scale
        let outerRadius = self.outerRadius * scale
        let named = monitor.flatMap { monitors.monitor(named: $0)?.frame }
        let reach = area.map { $0.frame(on: screen) }.flatMap { $0.isEmpty ? nil : $0 }
        let root = ScreenRect(x: 0, y: 0, width: Int(screen.width), height: Int(screen.height))
        func ringFits(around point: Point, on frame: ScreenRect) -> Bool {
            point.x - outerRadius >= Double(frame.x) && point.x + outerRadius <= Double(frame.x + frame.width)
                && point.y - outerRadius >= Double(frame.y) && point.y + outerRadius <= Double(frame.y + frame.height)
        }
        /// The center for coordinates multiplied by `factor`, and whether it is on the frame it
        /// was measured on.
        func place(by factor: Double) -> (center: Point, inside: Bool) {
            let centerX = ScreenCoordinate(self.centerX.value * factor)
            let centerY = ScreenCoordinate(self.centerY.value * factor)
            func measured(on frame: ScreenRect) -> Point {
                Point(x: Double(frame.x) + centerX.resolve(extent: Double(frame.width)),
                      y: Double(frame.y) + centerY.resolve(extent: Double(frame.height)))
            }
            let rootCenter = Point(x: centerX.resolve(extent: screen.width), y: centerY.resolve(extent: screen.height))
            if let named {
                let center = measured(on: named)
                return (center, named.contains(center))
            }
            if let reach, !reach.contains(rootCenter), reach.contains(measured(on: reach)) {
                return (measured(on: reach), true)
            }
            var center = rootCenter
            if let holding = monitors.largestMonitor(containing: center) {
                let own = measured(on: holding.frame)
                if !ringFits(around: center, on: holding.frame), ringFits(around: own, on: holding.frame) { center = own }
            } else if let nearest = monitors.monitor(at: center) {
                center = measured(on: nearest.frame)
            }
            return (center, root.contains(center))
        }
        var placed = place(by: scale)
        if scale != 1, !placed.inside {
            let unscaled = place(by: 1)
            if unscaled.inside { placed = unscaled }
        }
        return KnobRecognizer.Configuration(center: placed.center, innerRadius: innerRadius, outerRadius: outerRadius,
                                            activation: activation * .pi / 180)
    }

    /// The monitor the center is measured from when `monitors` lacks it; nil when it is there
    /// or none is named.
    public func missingMonitor(in monitors: MonitorLayout) -> String? {
        guard let monitor, monitors.monitor(named: monitor) == nil else { return nil }
        return monitor
    }
}

/// Visual feedback a binding asks the overlay for.
public enum FeedbackStyle: String, Sendable, Hashable, CaseIterable {
    /// A ring that grows and fades where the gesture began or was recognized.
    case pulse
    /// A ring that fills as the force approaches the threshold.
    case ring
}

/// Repeated actions for a continuous value: one action per `step` the value travels,
/// the remainder carried to the next report, the direction by its sign.
public struct StepActions: Sendable, Hashable {
    /// Degrees for a knob, force units (0...1) for force.
    public var step: Double
    public var increase: [Action]
    public var decrease: [Action]
}

/// A gesture, the devices it listens to, and what it does.
public struct Binding: Sendable, Hashable {
    public var name: String
    public var recognizer: RecognizerSettings
    /// Empty means every device.
    public var devices: [DeviceSelector]
    public var pressure: PressureRequirement
    public var applications: ApplicationFilter
    /// An owning binding competes for the contacts it recognizes: the first owning gesture
    /// to begin (or be recognized) wins the contact, ties going to the binding listed first,
    /// and the input is held back from applications until the contact is decided.
    public var ownsContact: Bool
    public var feedback: Set<FeedbackStyle>
    /// Fired when the gesture begins (continuous) or is recognized (discrete).
    public var onStart: [Action]
    /// Fired when a begun continuous gesture ends or is cancelled, or when the contact that
    /// made a discrete one (squeeze, long press) ends.
    public var onEnd: [Action]
    /// Knob rotation or force change mapped to repeated actions.
    public var steps: StepActions?
    /// Pressure thresholds: fired for each threshold crossed upwards / downwards.
    public var onCrossUp: [Action]
    public var onCrossDown: [Action]

    public init(name: String, recognizer: RecognizerSettings, devices: [DeviceSelector] = [],
                pressure: PressureRequirement = .any, applications: ApplicationFilter = .everywhere, ownsContact: Bool? = nil, feedback: Set<FeedbackStyle> = [],
                onStart: [Action] = [], onEnd: [Action] = [], steps: StepActions? = nil,
                onCrossUp: [Action] = [], onCrossDown: [Action] = []) {
        self.name = name
        self.recognizer = recognizer
        self.devices = devices
        self.pressure = pressure
        self.applications = applications
        self.ownsContact = ownsContact ?? recognizer.kind.ownsContactByDefault
        self.feedback = feedback
        self.onStart = onStart
        self.onEnd = onEnd
        self.steps = steps
        self.onCrossUp = onCrossUp
        self.onCrossDown = onCrossDown
    }

    /// Every action the binding can fire, whatever fires it.
    public var everyAction: [Action] {
        onStart + onEnd + (steps.map { $0.increase + $0.decrease } ?? []) + onCrossUp + onCrossDown
    }

    /// The buttons this binding can let go of: those it releases, and those it clicks (a click
    /// of a held button lets it go too: a deep press presses, a tap clicks to drop).
    public var releasedButtons: Set<Int> {
        Set(everyAction.compactMap { action -> Int? in
            switch action {
            case .release(let button), .click(let button): button
            case .press, .scroll, .key, .command, .volume: nil
            }
        })
    }

    /// The device names this binding's `devices` give (`{name: ...}`), in order.
    public var deviceNames: [String] {
        devices.compactMap { if case .named(let name) = $0 { name } else { nil } }
    }

    /// Whether this binding listens to contacts of `device`, by itself: among others, one that
    /// names the device may take it over (`BindingSet.bindings(for:in:)`).
    public func listens(to device: InputDevice) -> Bool {
        if recognizer.kind.needsPressure && !device.hasPressure { return false }
        guard pressure.accepts(device) else { return false }
        return devices.isEmpty || devices.contains { $0.matches(device) }
    }

    /// Whether this binding names `device` by its name, not only by its kind.
    func names(_ device: InputDevice) -> Bool {
        devices.contains { $0 == .named(device.name) }
    }
}

/// Everything a config says.
public struct BindingSet: Sendable, Hashable {
    public var bindings: [Binding]
    /// How long an owned contact's input may be held back when its force says nothing (it
    /// has not changed since touch-down, or no pressure gesture is listening) before it is
    /// given to the application (seconds).
    public var decisionTimeout: Double
    /// The longest a press whose force is still rising, or holding above an ordinary touch's,
    /// is held back (seconds from touch-down). See `HoldPolicy`.
    public var holdLimit: Double
    /// The feedback's colour, size and pulse length (`feedback:` at the top level).
    public var look: FeedbackLook
    /// Whether deep presses with `threshold: learned` learn and use each device's levels
    /// (`learn:` at the top level); false: they keep the levels they start from.
    public var learn: Bool

    /// The config's top-level keys.
    public enum Keys {
        public static let bindings = SectionKey("bindings", "list", standard: ConfigKey.required)
        public static let decisionTimeout = NumberKey("decision-timeout", .seconds, 0...5, standard: 0.5)
        /// The slowest of the six presses in the iPhone recording reaches 0.7 of the range
        /// after 6.2 s; 8 s leaves a margin over it.
        public static let holdLimit = NumberKey("hold-limit", .seconds, 0...60, standard: 8, atLeast: decisionTimeout.name)
        public static let feedback = SectionKey("feedback", "mapping", standard: "see below")
        public static let learn = FlagKey("learn", standard: true)
    }

    public static let schema = SectionSchema([Keys.bindings.entry, Keys.decisionTimeout.entry, Keys.holdLimit.entry,
                                              Keys.feedback.entry, Keys.learn.entry])

    public static let defaultDecisionTimeout = Keys.decisionTimeout.standard
    public static let defaultHoldLimit = Keys.holdLimit.standard

    public init(bindings: [Binding], decisionTimeout: Double = BindingSet.defaultDecisionTimeout,
                holdLimit: Double = BindingSet.defaultHoldLimit, look: FeedbackLook = .standard,
                learn: Bool = Keys.learn.standard) {
        self.bindings = bindings
        self.learn = learn
        self.decisionTimeout = decisionTimeout
        self.holdLimit = Swift.max(holdLimit, decisionTimeout)
        self.look = look
    }

    public func listens(to device: InputDevice) -> Bool {
        bindings.contains { $0.listens(to: device) }
    }

    /// The bindings that take contacts of `device` beginning in `window`, in config order: those
    /// that listen to it and apply there, less those of a gesture waiting for a level that
    /// another of them names the device for. A binding naming a device takes it from bindings
    /// of the same such gesture that match it only by kind (or match every device):
    /// `calibrate --write`'s binding for a pen replaces the default deep press on that pen,
    /// whichever threshold is lower. Knobs (each in its own place) and watching gestures all stay.
    public func bindings(for device: InputDevice, in window: WindowClass?) -> [Binding] {
        let listening = bindings.filter { $0.listens(to: device) && $0.applications.applies(to: window) }
        let named = Set(listening.filter { $0.names(device) && $0.recognizer.kind.waitsForALevel }.map(\.recognizer.kind))
        return listening.filter { $0.names(device) || !named.contains($0.recognizer.kind) }
    }

    /// The deep press a calibration of `device` starts from, whose rules (where it applies,
    /// what it does, its slop and feedback) the calibrated binding keeps: one that holds the
    /// contact (a watcher that owns nothing would make a calibrated binding that never takes a
    /// press), the one naming the device (an earlier calibration's) first, then one that
    /// applies everywhere, then any; nil for none (the built-in right-click).
    public func calibrationBase(for device: InputDevice) -> Binding? {
        let owning = bindings.filter { binding in
            guard case .deepPress = binding.recognizer, binding.ownsContact else { return false }
            return binding.listens(to: device)
        }
        return owning.first { $0.names(device) } ?? owning.first { $0.applications == .everywhere } ?? owning.first
    }

    /// The buttons some binding can let go of (`Binding.releasedButtons`).
    public var releasedButtons: Set<Int> {
        bindings.reduce(into: []) { $0.formUnion($1.releasedButtons) }
    }

    /// The buttons some binding listening to one of `devices` can let go of.
    public func releasedButtons(byContactsOf devices: some Collection<InputDevice>) -> Set<Int> {
        bindings.reduce(into: []) { released, binding in
            if devices.contains(where: binding.listens(to:)) { released.formUnion(binding.releasedButtons) }
        }
    }

    /// The device names bindings give (`devices: [{name: ...}]`) that none of `devices` has, in
    /// binding order, each with the binding: those bindings listen to no device by that name
    /// until one comes. `suggestion`: the name of one of `devices` close to it (a typo, another
    /// case), nil when none is.
    public func missingDevices(among devices: [InputDevice]) -> [(binding: String, name: String, suggestion: String?)] {
        let connected = devices.map(\.name)
        return bindings.flatMap { binding in
            binding.deviceNames.filter { !connected.contains($0) }.map { name in
                (binding.name, name, Suggestion.closest(to: name, among: connected))
            }
        }
    }

    /// The programs some bindings' `except` lists name and another binding's `except` list
    /// lacks, for each binding with such a list, in binding order, with the bindings that name
    /// each: a program added to one list and not the others (README asks for all three of the
    /// default config's) still gets the other gestures. Names are compared as the lists match
    /// windows: ignoring case, a name covering itself with a version after a dash.
    ///
    /// Each list is looked up as a set (found in review: a hundred bindings sharing one list of
    /// 900 names through an alias took `check` eleven minutes, every pair compared name by name).
    ///
    /// Only bindings that listen to some device both are compared, and no knob with another
    /// knob, each a place of its own (found in review of a config at scale: eighty knobs on
    /// their own devices and monitors, each leaving one program alone, were each told to copy
    /// the others' lists: 6,320 warnings).
    public var exceptListGaps: [(binding: String, missing: [(program: String, leftAloneBy: [String])])] {
        let lists = bindings.compactMap { binding -> (binding: Binding, programs: [String], names: Set<String>)? in
            guard case .except(let programs) = binding.applications else { return nil }
            return (binding, programs, Set(programs.map { $0.lowercased() }))
        }
        func compared(_ one: Binding, _ other: Binding) -> Bool {
            one.name != other.name && !(one.recognizer.kind == .knob && other.recognizer.kind == .knob) && SharedDevice.share(one, other)
        }
        return lists.compactMap { list in
            var missing: [(program: String, leftAloneBy: [String])] = []
            var places: [String: Int] = [:]
            for other in lists where compared(list.binding, other.binding) && !other.names.isSubset(of: list.names) {
                // `gimp` in this list leaves `gimp-2.10` of another alone too.
                for program in other.programs where !Self.covered(program, by: list.names) {
                    if let index = places[program.lowercased()] {
                        missing[index].leftAloneBy.append(other.binding.name)
                    } else {
                        places[program.lowercased()] = missing.count
                        missing.append((program, [other.binding.name]))
                    }
                }
            }
            return missing.isEmpty ? nil : (list.binding.name, missing)
        }
    }

    /// Whether a list of these lower-cased `names` leaves `program` alone, as it matches
    /// windows (`ApplicationFilter.covers`): its name, or its name with a version after a dash.
    static func covered(_ program: String, by names: Set<String>) -> Bool {
        let lowered = program.lowercased()
        if names.contains(lowered) { return true }
        guard let dash = lowered.lastIndex(of: "-") else { return false }
        let version = lowered[lowered.index(after: dash)...]
        guard version.first?.isNumber == true, version.allSatisfy({ $0.isNumber || $0 == "." }) else { return false }
        return names.contains(String(lowered[..<dash]))
    }

    /// For a config written from an earlier built-in default (`make install` and `calibrate
    /// --write` copy it): the programs `reference` (the built-in default now) leaves alone in a
    /// binding of the same name and gesture, which this config's binding acts in, by binding.
    /// Found in review of an upgrade: such a copy went on right-clicking in drawing programs and
    /// on on-screen keyboards, which the new default leaves alone, and nothing said so.
    public func programsLeftAlone(by reference: BindingSet) -> [(binding: String, programs: [String])] {
        bindings.compactMap { binding in
            guard let model = reference.bindings.first(where: { $0.name == binding.name && $0.recognizer.kind == binding.recognizer.kind }),
                  case .except(let leftAlone) = model.applications else { return nil }
            let own: [String]
            switch binding.applications {
            case .everywhere: own = []
            case .except(let programs): own = programs
            case .only: return nil
            }
            let missing = leftAlone.filter { program in !own.contains { ApplicationFilter.covers($0, program) } }
            return missing.isEmpty ? nil : (binding.name, missing)
        }
    }

    /// What a shell would make of a command, and nothing does here (it runs without one): a
    /// program named with `~` or `$`, an argument that is only a shell's operator. For `check` to
    /// warn of, binding by binding: an operator may be meant for the program
    /// (`xdotool type "|"`), so it is no error.
    public var shellWarnings: [(binding: String, message: String)] {
        bindings.flatMap { binding in
            Set(binding.everyAction.compactMap { action -> [String]? in
                if case .command(let argv) = action { argv } else { nil }
            }).sorted { $0.lexicographicallyPrecedes($1) }.compactMap { argv -> (String, String)? in
                ShellLine.warning(for: argv).map { (binding.name, $0) }
            }
        }
    }

    /// Bindings that load but cannot do what they seem to ask, with why (`check` warns of
    /// them; not errors, as a config that loaded before must load after an upgrade). Found in
    /// review of staged pressure: `check` said OK to both.
    public var bindingWarnings: [(binding: String, message: String)] {
        bindings.compactMap { binding -> (String, String)? in
            if case .pressureThresholds(let settings) = binding.recognizer, settings.thresholds.isEmpty,
               !(binding.onCrossUp.isEmpty && binding.onCrossDown.isEmpty) {
                return (binding.name, "its up and down actions never come: they are fired as the force crosses a threshold, and `thresholds` lists none (an empty list reports every change, crossing nothing)")
            }
            if binding.ownsContact, !binding.recognizer.kind.ownsContactByDefault {
                return (binding.name, "a \(binding.recognizer.kind.rawValue) gesture begins as a contact touches down, and owning its contacts it wins each one: every tap and stroke on its devices is its, none the applications'; leave `owns-contact` out unless that is meant")
            }
            return shadowWarning(for: binding).map { (binding.name, $0) }
        }
    }

    /// Why `binding` never acts on a press another owning pressure gesture on the same contacts
    /// takes first: a deep press or squeeze whose threshold is lower (the first to begin wins
    /// the contact), or stages at or above it (a contact a gesture wins ends the watching ones).
    /// Where both listen: on the devices both name (any, where neither does), in some
    /// application both act in. Found in review of staged pressure:
    /// README's squeeze at 0.85 added beside the default's deep press never came, and `check`
    /// said OK.
    private func shadowWarning(for binding: Binding) -> String? {
        func pressLevel(_ other: Binding) -> (threshold: Double, learned: Bool)? {
            guard other.ownsContact else { return nil }
            switch other.recognizer {
            case .deepPress(let settings): return (settings.threshold, settings.learned)
            case .squeeze(let settings): return (settings.threshold, false)
            default: return nil
            }
        }
        let own: [Double]
        switch binding.recognizer {
        case .deepPress, .squeeze:
            guard let level = pressLevel(binding) else { return nil }
            own = [level.threshold]
        case .pressureThresholds(let settings) where !(binding.onCrossUp.isEmpty && binding.onCrossDown.isEmpty):
            own = settings.thresholds
        default:
            return nil
        }
        guard let position = bindings.firstIndex(where: { $0.name == binding.name }) else { return nil }
        for (index, other) in bindings.enumerated() where index != position && other.applications.overlaps(binding.applications) {
            guard let level = pressLevel(other), let first = own.min() else { continue }
            // The devices both listen to: where this one never comes.
            let shared: [SharedDevice]
            switch (binding.devices.isEmpty, other.devices.isEmpty) {
            case (true, true): shared = []
            case (true, false): shared = other.devices.map { SharedDevice(selector: $0) }
            case (false, true): shared = binding.devices.map { SharedDevice(selector: $0) }
            case (false, false): shared = binding.devices.flatMap { mine in other.devices.compactMap { SharedDevice(mine, $0) } }
                guard !shared.isEmpty else { continue }
            }
            // A binding naming a device takes it from bindings of the same gesture that do not
            // (`bindings(for:in:)`): there neither shadows the other (found in review of a
            // config at scale: `calibrate --write`'s binding beside a deep press on every
            // device was said never to come).
            let sameGesture = binding.recognizer.kind == other.recognizer.kind && binding.recognizer.kind.waitsForALevel
            let overlapping = sameGesture
                ? shared.filter { device in
                    guard case .named = device.selector else { return true }
                    return binding.devices.contains(device.selector) == other.devices.contains(device.selector)
                }
                : shared
            if !shared.isEmpty, overlapping.isEmpty { continue }
            // At one threshold both begin on one sample, and the one listed first wins.
            let beatenPress = first > level.threshold || (first == level.threshold && index < position)
            let beaten = binding.recognizer.kind == .pressureThresholds ? own.filter { $0 >= level.threshold } : (beatenPress ? own : [])
            guard !beaten.isEmpty else { continue }
            let learning = level.learned ? " to start with (it learns the hand from there)" : ""
            let onDevices = overlapping.isEmpty || (overlapping.allSatisfy { $0.ifKind == nil } && overlapping.map(\.selector) == binding.devices) ? ""
                : " on " + overlapping.map(\.description).joined(separator: ", ")
            let place = onDevices + (other.applications == .everywhere ? "" : " where \(other.name) acts")
            return binding.recognizer.kind == .pressureThresholds
                ? "its thresholds \(beaten.map(\.formatted).joined(separator: ", ")) never come\(place): \(other.name) takes the press first, at \(level.threshold.formatted)\(learning), and a contact a gesture takes ends the watching ones"
                : "it never comes\(place): \(other.name) listens to the same contacts and begins first, at \(level.threshold.formatted)\(learning), and the first gesture to begin takes the contact"
        }
        return nil
    }

    /// A device two bindings both listen to, as `shadowWarning` tells it: one both select, or a
    /// device one names that the other selects by kind, should it be of that kind.
    private struct SharedDevice: CustomStringConvertible {
        let selector: DeviceSelector
        /// The kind the named device must be for both to listen to it; nil: both do.
        var ifKind: DeviceKind?

        init(selector: DeviceSelector, ifKind: DeviceKind? = nil) {
            self.selector = selector
            self.ifKind = ifKind
        }

        /// What `mine` and `theirs` both select; nil for nothing. Found in review of a config
        /// at scale: a squeeze on a named pen beside the deep press on `[pen]` never came, and
        /// `check` said nothing, a name and a kind never being equal.
        init?(_ mine: DeviceSelector, _ theirs: DeviceSelector) {
            switch (mine, theirs) {
            case _ where mine == theirs: self.init(selector: mine)
            case (.named, .kind(let kind)): self.init(selector: mine, ifKind: kind)
            case (.kind(let kind), .named): self.init(selector: theirs, ifKind: kind)
            case (.named, .named), (.kind, .kind): return nil
            }
        }

        var description: String {
            guard let ifKind else { return selector.description }
            let kind = switch ifKind {
            case .pen: "pen"
            case .eraser: "eraser"
            case .touch: "touchscreen"
            case .mouse: "mouse"
            case .touchpad: "touchpad"
            }
            return selector.description + ", if it is a " + kind
        }

        /// Whether `one` and `other` listen to some device both (every device, for a binding
        /// that names none).
        static func share(_ one: Binding, _ other: Binding) -> Bool {
            one.devices.isEmpty || other.devices.isEmpty
                || one.devices.contains { mine in other.devices.contains { SharedDevice(mine, $0) != nil } }
        }
    }

    /// The knobs whose center names a monitor `monitors` lacks, with that monitor's name, in
    /// binding order: those knobs are measured from the root's corners until it comes.
    public func missingMonitors(in monitors: MonitorLayout) -> [(binding: String, monitor: String)] {
        bindings.compactMap { binding in
            guard case .knob(let settings) = binding.recognizer, let missing = settings.missingMonitor(in: monitors) else { return nil }
            return (binding.name, missing)
        }
    }
}
