import GestureKit

/// One sample of a plotted contact: seconds since its touch-down, and its force (0...1 of the
/// device's pressure range).
public struct ForcePoint: Sendable, Hashable {
    public var time: Double
    public var force: Double
}

/// What became of a contact's input.
public enum PressOutcome: Sendable, Hashable {
    /// The bridge took it: `gesture` (a deep press) won it, `after` seconds from touch-down.
    case claimed(gesture: String, after: Double)
    /// Handed to the application `after` seconds from touch-down, and why.
    case handedOver(ReleaseReason, after: Double)
    /// Nothing was decided: no owning gesture held it (or the command only listens).
    case undecided

    /// Seconds the contact was held back from the application; nil when nothing was decided.
    public var held: Double? {
        switch self {
        case .claimed(_, let after), .handedOver(_, let after): return after
        case .undecided: return nil
        }
    }
}

/// Where a deep press's levels come from.
public enum LevelSource: String, Sendable, Hashable, CaseIterable {
    /// As the config states them (or, for `threshold: learned`, where learning starts).
    case configured
    /// As learning moved them for the device, in force when the contact began.
    case learned
    /// As `calibrate` proposes them from its session.
    case proposed
}

/// A deep press's three levels from one source.
public struct SourcedLevels: Sendable, Hashable {
    public var source: LevelSource
    public var levels: PressLevels

    public init(_ source: LevelSource, _ levels: PressLevels) {
        self.source = source
        self.levels = levels
    }
}

/// One contact as a picture shows it: its force over time, the levels it was judged against,
/// and what became of it.
public struct PlottedPress: Sendable, Hashable {
    /// 1-based, in the order the contacts went down.
    public var number: Int
    public var device: Int
    public var deviceName: String
    public var contact: Int
    /// Touch-down, on the trace's clock.
    public var start: Double
    public var samples: [ForcePoint]
    public var outcome: PressOutcome = .undecided
    /// The levels it was judged against: configured first, then learned or proposed ones.
    public var levels: [SourcedLevels] = []
    /// A group the command gave it (calibrate's "ordinary" and "hard" steps); nil otherwise.
    public var group: String?

    /// The highest force it reached.
    public var peak: Double { samples.map(\.force).max() ?? 0 }

    /// Seconds from touch-down to its last sample.
    public var duration: Double { samples.last?.time ?? 0 }

    /// The force at `time` seconds from touch-down: the last sample at or before it.
    public func force(at time: Double) -> Double {
        var force = samples.first?.force ?? 0
        for sample in samples {
            guard sample.time <= time else { break }
            force = sample.force
        }
        return force
    }
}

/// Collects the contacts of a trace or a session, and what the engine decided about each, as a
/// picture shows them. Feed it every contact event, then the engine's outputs for that event.
public struct PressHistory: Sendable {
    public private(set) var presses: [PlottedPress] = []
    private let devices: [Int: InputDevice]
    /// Each device's deep press as configured, and whether it learns.
    private let deepPress: [Int: (levels: PressLevels, learns: Bool)]
    /// Learned levels in force now, by device name.
    private var learned: [String: PressLevels] = [:]
    /// The contact each key refers to now: open while it is down, and afterwards until the same
    /// key goes down again (a decision may come with the lift).
    private var current: [ContactKey: Int] = [:]
    private var down: Set<ContactKey> = []
    /// The contact that lifted last (calibrate's step counts it then).
    private var lastLifted: Int?

    /// `configuration`: the deep press whose levels the picture draws (nil: none drawn);
    /// `learning`: what learning starts from (replay's `--state`).
    public init(devices: [InputDevice], configuration: BindingSet?, learning: PressLearning = PressLearning()) {
        var byID: [Int: InputDevice] = [:]
        var deepPress: [Int: (levels: PressLevels, learns: Bool)] = [:]
        for device in devices where device.pressure != nil {
            byID[device.id] = device
            if let configuration, let found = Self.deepPress(in: configuration, for: device) {
                deepPress[device.id] = found
            }
        }
        self.devices = byID
        self.deepPress = deepPress
        // A state is kept under the device's name, or its name and " [vendor:product]".
        for (key, learner) in learning.devices where !learner.calibrated {
            guard let levels = learner.levels else { continue }
            for device in devices where key == device.name || key.hasPrefix(device.name + " [") {
                learned[device.name] = levels
            }
        }
    }

    /// The deep press the engine gives `device` (a binding naming the device before one for its
    /// kind; no window is known, so a rule for some programs only does not apply), the first
    /// that holds the contact: its levels, and whether learning moves them on it.
    public static func deepPress(in configuration: BindingSet, for device: InputDevice) -> (levels: PressLevels, learns: Bool)? {
        let applying = configuration.bindings(for: device, in: nil)
        for binding in applying.filter(\.ownsContact) + applying.filter({ !$0.ownsContact }) {
            guard case .deepPress(let press) = binding.recognizer else { continue }
            return (PressLevels(threshold: press.threshold, release: press.release, ordinary: press.ordinary),
                    press.learned && configuration.learn)
        }
        return nil
    }

    /// Takes one contact event (a device without pressure, or hovering, is left out).
    public mutating func add(_ event: ContactEvent) {
        guard let device = devices[event.device], let range = device.pressure else { return }
        let key = ContactKey(device: event.device, contact: event.contact)
        let force = event.pressure.map(range.normalize) ?? 0
        switch event.phase {
        case .begin:
            var levels: [SourcedLevels] = []
            if let configured = deepPress[device.id] {
                levels.append(SourcedLevels(.configured, configured.levels))
                if configured.learns, let moved = learned[device.name], moved != configured.levels {
                    levels.append(SourcedLevels(.learned, moved))
                }
            }
            presses.append(PlottedPress(number: presses.count + 1, device: device.id, deviceName: device.name,
                                        contact: event.contact, start: event.time,
                                        samples: [ForcePoint(time: 0, force: force)], levels: levels))
            current[key] = presses.count - 1
            down.insert(key)
        case .move, .end, .cancel:
            guard down.contains(key), let index = current[key] else { return }
            let time = Swift.max(0, event.time - presses[index].start)
            // A lift reports the force of the moment before it; a cancel none worth drawing.
            if event.phase != .cancel || event.pressure != nil {
                presses[index].samples.append(ForcePoint(time: time, force: force))
            }
            if event.phase != .move { down.remove(key) }
            if event.phase == .end { lastLifted = index }
        case .hover:
            return
        }
    }

    /// Takes the engine's outputs for the event added last.
    public mutating func add(_ outputs: [EngineOutput]) {
        for output in outputs { add(output) }
    }

    public mutating func add(_ output: EngineOutput) {
        switch output {
        case .decision(let decision):
            guard let index = current[decision.key] else { return }
            switch decision {
            case .claim(_, let gesture, _, let held):
                presses[index].outcome = .claimed(gesture: gesture, after: held)
            case .release(_, let reason, _, let held):
                presses[index].outcome = .handedOver(reason, after: held)
            }
        case .learned(let change):
            learned[change.device] = change.levels
        case .gesture, .action, .feedback, .bug:
            break
        }
    }

    /// Puts the contact that lifted last into a group (calibrate's step that counted it).
    public mutating func groupLastLifted(_ group: String) {
        guard let index = lastLifted else { return }
        presses[index].group = group
    }

    /// Adds `levels` from `source` to every contact of `device` (calibrate's proposal).
    public mutating func addLevels(_ levels: SourcedLevels, device: Int) {
        for index in presses.indices where presses[index].device == device {
            presses[index].levels.append(levels)
        }
    }
}

/// A trace run through the engine as `replay` runs it, its contacts collected as they go: what
/// `analyze --plot` draws.
public struct PressReplay {
    private var replayer: TraceReplayer
    public private(set) var history: PressHistory
    private var outputs: [EngineOutput] = []

    public init(header: TraceHeader, configuration: BindingSet, learning: PressLearning = PressLearning()) {
        replayer = TraceReplayer(header: header, configuration: configuration, learning: learning)
        history = PressHistory(devices: header.devices, configuration: configuration, learning: learning)
    }

    public mutating func handle(_ event: ContactEvent) {
        history.add(event)
        replayer.handle(event, into: &outputs)
        history.add(outputs)
        outputs.removeAll(keepingCapacity: true)
    }

    /// Timers due by the end of the recording fire (a press held to the end is decided).
    public mutating func finish() {
        replayer.finish(into: &outputs)
        history.add(outputs)
        outputs.removeAll(keepingCapacity: true)
    }

    /// The whole of `trace`, replayed.
    public static func of(_ trace: Trace, configuration: BindingSet, learning: PressLearning = PressLearning()) -> PressHistory {
        var replay = PressReplay(header: trace.header, configuration: configuration, learning: learning)
        for event in trace.events { replay.handle(event) }
        replay.finish()
        return replay.history
    }
}
