/// A binding: the keys every binding has, then its gesture's own keys, read through the
/// gesture's schema (`RecognizerKind.schema`, declared beside each recognizer's configuration).
extension ConfigParser {
    /// The keys every binding may have, whatever its gesture.
    static var commonKeys: [String] { Binding.schema.names }

    /// A binding, or nil when anything in it is wrong (each problem reported).
    mutating func parseBinding(_ node: YAMLNode) -> Binding? {
        guard let map = mapping(node, "a binding") else { return nil }
        let issueCount = issues.count
        // A binding whose name is wrong is read all the same, so its other problems show too.
        let name = parseName(map, at: node)
        guard let kind = parseKind(map, at: node, binding: name) else {
            // Its gesture unknown (a typo), its keys, devices, applications and actions are read
            // all the same, so their problems show at once, not one per round of fixing (its
            // `pressure` and `feedback` depend on the gesture: once it is known).
            let anyGesture = Set(RecognizerKind.allCases.flatMap(\.schema.names))
            checkKeys(map, allowed: Self.commonKeys + anyGesture.sorted(), context: "for a binding")
            _ = map["devices"].map { parseDevices($0) }
            _ = map["applications"].map { parseApplications($0) }
            _ = map["owns-contact"].flatMap { bool($0, "owns-contact") }
            _ = map["action"].map { parseActions($0, "action") }
            _ = map["on-end"].map { parseActions($0, "on-end") }
            return nil
        }
        checkKeys(map, allowed: Self.commonKeys + kind.schema.names, context: "for a \(kind.rawValue) binding", kind: kind)
        let devices = map["devices"].map { parseDevices($0) } ?? []
        let pressure = parsePressure(map, kind: kind)
        let applications = map["applications"].map { parseApplications($0) } ?? .everywhere
        let owns = map["owns-contact"].flatMap { bool($0, "owns-contact") }
        let onStart = map["action"].map { parseActions($0, "action") } ?? []
        let onEnd = map["on-end"].map { parseActions($0, "on-end") } ?? []
        let gesture = parseGesture(kind, map, at: node)
        let feedback = parseBindingFeedback(map, kind: kind, steps: gesture.steps)
        guard let name, issues.count == issueCount else { return nil }
        return Binding(name: name, recognizer: gesture.settings, devices: devices, pressure: pressure,
                       applications: applications, ownsContact: owns, feedback: feedback, onStart: onStart, onEnd: onEnd,
                       steps: gesture.steps, onCrossUp: gesture.crossUp, onCrossDown: gesture.crossDown)
    }

    static var gestureList: String { RecognizerKind.allCases.map(\.rawValue).joined(separator: ", ") }

    /// `name`: given, and not empty.
    private mutating func parseName(_ map: YAMLNode.Mapping, at node: YAMLNode) -> String? {
        guard let nameNode = map["name"] else {
            issues.append(issue(at: node, "this binding has no `name`; give it one (it names the gesture in logs and replay output)"))
            return nil
        }
        guard let name = string(nameNode, "name") else { return nil }
        guard !name.isEmpty else {
            issues.append(issue(at: nameNode, "`name` is empty; give the binding a name (it names the gesture in logs and replay output)"))
            return nil
        }
        return name
    }

    /// `gesture`: one of the recognizers.
    private mutating func parseKind(_ map: YAMLNode.Mapping, at node: YAMLNode, binding name: String?) -> RecognizerKind? {
        guard let gestureNode = map["gesture"] else {
            let binding = name.map { "binding `\($0)`" } ?? "this binding"
            issues.append(issue(at: node, "\(binding) has no `gesture`; one of: \(Self.gestureList)"))
            return nil
        }
        guard let gestureName = string(gestureNode, "gesture") else { return nil }
        guard let kind = RecognizerKind(rawValue: gestureName) else {
            issues.append(issue(at: gestureNode, "unknown gesture `\(gestureName)`"
                + Suggestion.didYouMean(gestureName, among: RecognizerKind.allCases.map(\.rawValue))
                + "; one of: \(Self.gestureList)"))
            return nil
        }
        return kind
    }

    private mutating func parsePressure(_ map: YAMLNode.Mapping, kind: RecognizerKind) -> PressureRequirement {
        guard let node = map["pressure"], let word = string(node, "pressure") else { return .any }
        guard let value = PressureRequirement(rawValue: word) else {
            issues.append(issue(at: node, "`pressure` must be one of any, required, absent, not `\(word)`"))
            return .any
        }
        if value == .absent && kind.needsPressure {
            issues.append(issue(at: node, "a \(kind.rawValue) needs pressure, so `pressure: absent` would never match a device"))
        }
        return value
    }

    /// `feedback`: as given, else a pulse for a deep press, the level ring for a knob that
    /// turns the volume, nothing for the others.
    private mutating func parseBindingFeedback(_ map: YAMLNode.Mapping, kind: RecognizerKind,
                                               steps: StepActions?) -> Set<FeedbackStyle> {
        if let node = map["feedback"] { return parseFeedback(node) }
        let turnsVolume = ((steps?.increase ?? []) + (steps?.decrease ?? [])).contains { $0.name == "volume" }
        switch kind {
        case .deepPress: return [.pulse]
        case .knob where turnsVolume: return [.ring]
        case .knob, .force, .squeeze, .pressureThresholds, .longPress: return []
        }
    }

    // MARK: Gestures

    /// What a gesture's own keys make of a binding.
    private struct GestureParts {
        var settings: RecognizerSettings
        var steps: StepActions?
        var crossUp: [Action] = []
        var crossDown: [Action] = []
    }

    private mutating func parseGesture(_ kind: RecognizerKind, _ map: YAMLNode.Mapping, at node: YAMLNode) -> GestureParts {
        switch kind {
        case .force:
            let settings = RecognizerSettings.force(parseForce(map))
            return GestureParts(settings: settings, steps: parseSteps(map, ForceRecognizer.Configuration.Keys.steps))
        case .deepPress:
            return GestureParts(settings: .deepPress(parseDeepPress(map)))
        case .squeeze:
            return GestureParts(settings: .squeeze(parseSqueeze(map)))
        case .pressureThresholds:
            typealias Keys = PressureThresholdsRecognizer.Configuration.Keys
            return GestureParts(settings: .pressureThresholds(parsePressureThresholds(map)),
                                crossUp: map[Keys.up.name].map { parseActions($0, Keys.up.name) } ?? [],
                                crossDown: map[Keys.down.name].map { parseActions($0, Keys.down.name) } ?? [])
        case .knob:
            let settings = RecognizerSettings.knob(parseKnob(map, at: node))
            return GestureParts(settings: settings, steps: parseSteps(map, KnobSettings.Keys.steps))
        case .longPress:
            return GestureParts(settings: .longPress(parseLongPress(map)))
        }
    }

    private mutating func parseForce(_ map: YAMLNode.Mapping) -> ForceRecognizer.Configuration {
        ForceRecognizer.Configuration(maximum: number(map, ForceRecognizer.Configuration.Keys.maximum))
    }

    private mutating func parseDeepPress(_ map: YAMLNode.Mapping) -> DeepPressRecognizer.Configuration {
        typealias Keys = DeepPressRecognizer.Configuration.Keys
        // `threshold: learned` starts from today's built-in levels and learns the hand.
        let learned = map[Keys.threshold.name].map { isLearned($0, Keys.threshold) } ?? false
        let threshold = learned ? PressLevels.start.threshold : number(map, Keys.threshold.number)
        let release = number(map, Keys.release, under: threshold, because: "the press ends when the force falls under it")
        let slop = number(map, Keys.slop)
        let ordinary = number(map, Keys.ordinary, under: threshold, because: Self.ordinaryReason)
        return DeepPressRecognizer.Configuration(
            threshold: threshold, release: release ?? (learned ? PressLevels.start.release : nil), slop: slop,
            ordinary: ordinary ?? (learned ? PressLevels.start.ordinary : nil), learned: learned)
    }

    private static let ordinaryReason = "a still press that levels off at or under it goes to the application"

    private mutating func parseSqueeze(_ map: YAMLNode.Mapping) -> SqueezeRecognizer.Configuration {
        typealias Keys = SqueezeRecognizer.Configuration.Keys
        let learnedWord = DeepPressRecognizer.Configuration.Keys.threshold.word
        var threshold = Keys.threshold.standard
        if let node = map[Keys.threshold.name] {
            if node.scalar?.string == learnedWord {
                issues.append(issue(at: node, "only a deep-press learns its threshold; give a squeeze a number between "
                    + "\(Keys.threshold.range.lowerBound.formatted) and \(Keys.threshold.range.upperBound.formatted)"))
            } else {
                threshold = number(map, Keys.threshold)
            }
        }
        let slop = number(map, Keys.slop)
        let ordinary = number(map, Keys.ordinary, under: threshold, because: Self.ordinaryReason)
        return SqueezeRecognizer.Configuration(threshold: threshold, slop: slop, ordinary: ordinary)
    }

    private mutating func parsePressureThresholds(_ map: YAMLNode.Mapping) -> PressureThresholdsRecognizer.Configuration {
        typealias Keys = PressureThresholdsRecognizer.Configuration.Keys
        let thresholds = numbers(map, Keys.thresholds, each: "each threshold", example: "[0.25, 0.5, 0.75]")
        return PressureThresholdsRecognizer.Configuration(thresholds: thresholds, hysteresis: number(map, Keys.hysteresis))
    }

    private mutating func parseKnob(_ map: YAMLNode.Mapping, at node: YAMLNode) -> KnobSettings {
        typealias Keys = KnobSettings.Keys
        var center = KnobCenter(x: ScreenCoordinate(-120), y: ScreenCoordinate(120), monitor: nil)
        if let centerNode = map[Keys.center.name] {
            if let parsed = parseCenter(centerNode) { center = parsed }
        } else {
            issues.append(issue(at: node, "a knob needs a `center: [x, y]` (pixels; negative counts from the right or bottom edge)"))
        }
        let outer = number(map, Keys.outerRadius)
        let inner = number(map, Keys.innerRadius, under: outer, because: "the knob turns in the ring from one to the other")
        return KnobSettings(centerX: center.x, centerY: center.y, monitor: center.monitor, innerRadius: inner,
                            outerRadius: outer, activation: number(map, Keys.activation))
    }

    private mutating func parseLongPress(_ map: YAMLNode.Mapping) -> LongPressRecognizer.Configuration {
        typealias Keys = LongPressRecognizer.Configuration.Keys
        return LongPressRecognizer.Configuration(duration: number(map, Keys.duration), slop: number(map, Keys.slop))
    }

    /// A force's or a knob's `step` and its actions; nil when it has no actions.
    private mutating func parseSteps(_ map: YAMLNode.Mapping, _ keys: StepKeys) -> StepActions? {
        let up = map[keys.increase.name].map { parseActions($0, keys.increase.name) } ?? []
        let down = map[keys.decrease.name].map { parseActions($0, keys.decrease.name) } ?? []
        let step = number(map, keys.step)
        guard !up.isEmpty || !down.isEmpty else { return nil }
        return StepActions(step: step, increase: up, decrease: down)
    }

    /// Whether a deep press's `threshold` says `learned`. A word that is neither a number nor
    /// `learned` is reported here, with a suggestion for a misspelling (`learn`, `learnt`).
    private mutating func isLearned(_ node: YAMLNode, _ key: LearnableNumberKey) -> Bool {
        guard let scalar = node.scalar, node.float == nil, node.int == nil else { return false }
        let word = scalar.string
        if word == key.word { return true }
        guard !word.isEmpty, node.bool == nil else { return false }
        let hint = ["learn", "learnt", "learning", "auto", "adaptive"].contains(word.lowercased())
            ? "; did you mean `\(key.word)`?" : Suggestion.didYouMean(word, among: [key.word])
        let range = key.number.range
        issues.append(issue(at: node, "`\(key.name)` must be a number between \(range.lowerBound.formatted) and "
            + "\(range.upperBound.formatted), or `\(key.word)`, not \(Self.shown(node))" + hint))
        return true
    }

    // MARK: A knob's center

    private struct KnobCenter {
        var x: ScreenCoordinate
        var y: ScreenCoordinate
        var monitor: String?
    }

    private static let centerExample = "`center` must be [x, y] in pixels, like [-120, 120] (negative counts from the right or bottom edge), or {monitor: HDMI-1, at: [x, y]} to count from a monitor's edges"

    /// `[x, y]`, `{x: , y: }`, or `{monitor: NAME, at: [x, y]}`.
    private mutating func parseCenter(_ node: YAMLNode) -> KnobCenter? {
        guard case .mapping(let map) = node, map["monitor"] != nil || map["at"] != nil else {
            return parsePoint(node).map { KnobCenter(x: $0.0, y: $0.1, monitor: nil) }
        }
        checkKeys(map, allowed: ["monitor", "at"], context: "in a `center` on a monitor")
        guard let monitorNode = map["monitor"], let atNode = map["at"] else {
            issues.append(issue(at: node, "a `center` on a monitor needs both `monitor` (its name, as `xrandr --listmonitors` shows it) and `at: [x, y]`"))
            return nil
        }
        guard let monitor = string(monitorNode, "monitor") else { return nil }
        guard !monitor.trimmingWhitespace().isEmpty else {
            issues.append(issue(at: monitorNode, "`monitor` needs a monitor's name, as `xrandr --listmonitors` shows it, like HDMI-1"))
            return nil
        }
        guard let point = parsePoint(atNode) else { return nil }
        return KnobCenter(x: point.0, y: point.1, monitor: monitor)
    }

    private mutating func parsePoint(_ node: YAMLNode) -> (ScreenCoordinate, ScreenCoordinate)? {
        let range = KnobSettings.Keys.center.range
        switch node {
        case .sequence(let items) where items.count == 2:
            guard let x = number(items[0], "center x", in: range), let y = number(items[1], "center y", in: range) else {
                return nil
            }
            return (ScreenCoordinate(x), ScreenCoordinate(y))
        case .mapping(let map):
            checkKeys(map, allowed: ["x", "y"], context: "in `center`")
            guard let xNode = map["x"], let yNode = map["y"] else {
                issues.append(issue(at: node, "`center` needs both `x` and `y`"))
                return nil
            }
            guard let x = number(xNode, "center x", in: range), let y = number(yNode, "center y", in: range) else { return nil }
            return (ScreenCoordinate(x), ScreenCoordinate(y))
        default:
            issues.append(issue(at: node, Self.centerExample))
            return nil
        }
    }

    // MARK: Devices, applications and feedback

    private mutating func parseDevices(_ node: YAMLNode) -> [DeviceSelector] {
        let items: [YAMLNode]
        if case .sequence(let sequence) = node { items = Array(sequence) } else { items = [node] }
        // Found in review of a YAML power user's config: `devices: []`, written to switch a
        // binding off, listened to every device (mice too), as a binding without `devices` does.
        guard !items.isEmpty else {
            issues.append(issue(at: node, "`devices` names no device: leave it out for every device, or name some (pen, eraser, touch, mouse, touchpad, {name: \"device name\"}); to switch a binding off, remove it or comment it out"))
            return []
        }
        var selectors: [DeviceSelector] = []
        for item in items {
            if case .mapping(let map) = item {
                checkKeys(map, allowed: ["name"], context: "in a device")
                if let nameNode = map["name"], let name = string(nameNode, "device name") {
                    selectors.append(.named(name))
                } else if map["name"] == nil {
                    issues.append(issue(at: item, "a device given by name is written `{name: \"Wacom Intuos Pen stylus\"}`"))
                }
                continue
            }
            guard let word = string(item, "a device") else { continue }
            if let kind = DeviceKind(rawValue: word) {
                selectors.append(.kind(kind))
            } else {
                issues.append(issue(at: item, "unknown device kind `\(word)`"
                    + Suggestion.didYouMean(word, among: DeviceKind.allCases.map(\.rawValue))
                    + "; one of: \(DeviceKind.allCases.map(\.rawValue).joined(separator: ", ")), or {name: \"device name\"} (see `gesture-bridge devices`)"))
            }
        }
        return selectors
    }

    private mutating func parseApplications(_ node: YAMLNode) -> ApplicationFilter {
        let example = "`applications` is {only: [gimp, krita]} or {except: [mpv]} (WM_CLASS names; `xprop WM_CLASS` shows a window's)"
        guard case .mapping(let map) = node else {
            issues.append(issue(at: node, example))
            return .everywhere
        }
        checkKeys(map, allowed: ["only", "except"], context: "in `applications`")
        let lists = ["only", "except"].compactMap { key in map[key].map { (key, $0) } }
        guard lists.count == 1, let (key, listNode) = lists.first else {
            issues.append(issue(at: node, example + "; give one of the two"))
            return .everywhere
        }
        let items: [YAMLNode]
        if case .sequence(let sequence) = listNode { items = Array(sequence) } else { items = [listNode] }
        // Found in review: `only: []` (or `only:` with nothing) was taken, a binding that never
        // acts, whose release then counted for a button another binding presses everywhere.
        guard !items.isEmpty else {
            issues.append(issue(at: listNode, "`\(key)` names no application; " + example))
            return .everywhere
        }
        let names = items.compactMap { string($0, "an application name") }
        if names.contains(where: { $0.allSatisfy(\.isWhitespace) }) {
            issues.append(issue(at: listNode, "`\(key)` has an empty application name; " + example))
        }
        return key == "only" ? .only(names) : .except(names)
    }

    private mutating func parseFeedback(_ node: YAMLNode) -> Set<FeedbackStyle> {
        let items: [YAMLNode]
        if case .sequence(let sequence) = node { items = Array(sequence) } else { items = [node] }
        var styles: Set<FeedbackStyle> = []
        for item in items {
            guard let word = string(item, "feedback") else { continue }
            if word == "none" { continue }
            if let style = FeedbackStyle(rawValue: word) {
                styles.insert(style)
            } else {
                issues.append(issue(at: item, "unknown feedback `\(word)`"
                    + Suggestion.didYouMean(word, among: FeedbackStyle.allCases.map(\.rawValue) + ["none"])
                    + "; one of: pulse, ring, none"))
            }
        }
        return styles
    }
}
