/// Turns config YAML into bindings, collecting every problem with its line and column
/// instead of stopping at the first, so one `check` run shows everything to fix.
struct ConfigParser {
    private(set) var issues: [ConfigIssue] = []

    // MARK: Document

    mutating func parseDocument(_ text: String) -> BindingSet? {
        let root: YAMLNode?
        do {
            root = try YAMLDocument.read(text)
        } catch {
            issues.append(Self.issue(for: error))
            return nil
        }
        guard let root else {
            issues.append(ConfigIssue(line: 1, column: 1, message: "the config is empty; it needs a `bindings:` list (see the config reference)"))
            return nil
        }
        guard let mapping = mapping(root, "the config") else { return nil }
        let topKeys = ["bindings", "decision-timeout", "hold-limit", "feedback", "learn"]
        checkKeys(mapping, allowed: topKeys, context: "at the top level")
        var decisionTimeout = BindingSet.defaultDecisionTimeout
        if let node = mapping["decision-timeout"], let value = number(node, "decision-timeout", in: 0...5) {
            decisionTimeout = value
        }
        var holdLimit = BindingSet.defaultHoldLimit
        if let node = mapping["hold-limit"], let value = number(node, "hold-limit", in: 0...60) {
            if value < decisionTimeout {
                issues.append(issue(at: node, "`hold-limit` (\(value.formatted)) must be at least `decision-timeout` (\(decisionTimeout.formatted)): it is the longest any press is held, the decision timeout the longest one whose force says nothing"))
            }
            holdLimit = value
        }
        var look = FeedbackLook.standard
        if let node = mapping["feedback"] { look = parseLook(node) }
        let learn = mapping["learn"].flatMap { bool($0, "learn") } ?? true
        guard let bindingsNode = mapping["bindings"] else {
            issues.append(issue(at: root, "the config has no `bindings:` list"))
            return nil
        }
        guard case .sequence(let sequence) = bindingsNode else {
            issues.append(issue(at: bindingsNode, "`bindings` must be a list of bindings (each item starting with `- name:`)"))
            return nil
        }
        var bindings: [Binding] = []
        var names: Set<String> = []
        for item in sequence {
            guard let binding = parseBinding(item) else { continue }
            if !names.insert(binding.name).inserted {
                issues.append(issue(at: item["name"] ?? item, "a binding named `\(binding.name)` is already defined; names must be unique"))
            }
            bindings.append(binding)
        }
        return BindingSet(bindings: bindings, decisionTimeout: decisionTimeout, holdLimit: holdLimit, look: look, learn: learn)
    }

    /// The top-level `feedback:` section: `color`, `size`, `duration`; what it leaves out stays standard.
    private mutating func parseLook(_ node: YAMLNode) -> FeedbackLook {
        var look = FeedbackLook.standard
        guard let map = mapping(node, "`feedback` at the top level") else { return look }
        checkKeys(map, allowed: ["color", "size", "duration"], context: "in `feedback`")
        if let colorNode = map["color"], let text = string(colorNode, "color") {
            if let color = FeedbackLook.color(hex: text) {
                look.color = color
            } else {
                issues.append(issue(at: colorNode, "`color` must be a colour as `\"#rrggbb\"` (quoted: YAML reads `#` as a comment), not `\(text)`"))
            }
        }
        if let sizeNode = map["size"], let size = number(sizeNode, "size", in: FeedbackLook.sizes) { look.size = size }
        if let durationNode = map["duration"], let duration = number(durationNode, "duration", in: FeedbackLook.durations) {
            look.duration = duration
        }
        return look
    }

    // MARK: Bindings

    private static let commonKeys = ["name", "gesture", "devices", "pressure", "applications", "owns-contact", "feedback",
                                      "action", "on-end"]
    private static let gestureKeys: [RecognizerKind: [String]] = [
        .force: ["maximum", "step", "up", "down"],
        .deepPress: ["threshold", "release", "slop", "ordinary"],
        .squeeze: ["threshold", "slop", "ordinary"],
        .pressureThresholds: ["thresholds", "hysteresis", "up", "down"],
        .knob: ["center", "inner-radius", "outer-radius", "activation", "step", "clockwise", "counterclockwise"],
        .longPress: ["duration", "slop"],
    ]

    /// `ordinary`: the force an ordinary touch reaches, below the threshold.
    private mutating func parseOrdinary(_ map: YAMLNode.Mapping, threshold: Double) -> Double? {
        guard let node = map["ordinary"], let ordinary = number(node, "ordinary", in: 0...1) else { return nil }
        if ordinary >= threshold {
            issues.append(issue(at: node, "`ordinary` (\(ordinary.formatted)) must be below `threshold` (\(threshold.formatted)): a still press that levels off at or under it goes to the application"))
        }
        return ordinary
    }

    private mutating func parseBinding(_ node: YAMLNode) -> Binding? {
        guard let map = mapping(node, "a binding") else { return nil }
        let issueCount = issues.count
        guard let nameNode = map["name"] else {
            issues.append(issue(at: node, "this binding has no `name`; give it one (it names the gesture in logs and replay output)"))
            return nil
        }
        guard let name = string(nameNode, "name"), !name.isEmpty else { return nil }
        guard let gestureNode = map["gesture"] else {
            issues.append(issue(at: node, "binding `\(name)` has no `gesture`; one of: \(Self.gestureList)"))
            return nil
        }
        guard let gestureName = string(gestureNode, "gesture") else { return nil }
        guard let kind = RecognizerKind(rawValue: gestureName) else {
            issues.append(issue(at: gestureNode, "unknown gesture `\(gestureName)`"
                + Suggestion.didYouMean(gestureName, among: RecognizerKind.allCases.map(\.rawValue))
                + "; one of: \(Self.gestureList)"))
            return nil
        }
        let ownKeys = Self.gestureKeys[kind] ?? []
        checkKeys(map, allowed: Self.commonKeys + ownKeys, context: "for a \(kind.rawValue) binding", kind: kind)

        let devices = map["devices"].map { parseDevices($0) } ?? []
        var pressure = PressureRequirement.any
        if let node = map["pressure"], let word = string(node, "pressure") {
            if let value = PressureRequirement(rawValue: word) {
                pressure = value
                if value == .absent && kind.needsPressure {
                    issues.append(issue(at: node, "a \(kind.rawValue) needs pressure, so `pressure: absent` would never match a device"))
                }
            } else {
                issues.append(issue(at: node, "`pressure` must be one of any, required, absent, not `\(word)`"))
            }
        }
        let applications = map["applications"].map { parseApplications($0) } ?? .everywhere
        let owns = map["owns-contact"].flatMap { bool($0, "owns-contact") }
        let onStart = map["action"].map { parseActions($0, "action") } ?? []
        let onEnd = map["on-end"].map { parseActions($0, "on-end") } ?? []

        var steps: StepActions?
        var crossUp: [Action] = []
        var crossDown: [Action] = []
        let settings: RecognizerSettings
        switch kind {
        case .force:
            let maximum = map["maximum"].flatMap { number($0, "maximum", in: 0.001...1) } ?? 1
            settings = .force(ForceRecognizer.Configuration(maximum: maximum))
            steps = parseSteps(map, increase: "up", decrease: "down", defaultStep: 0.1, range: 0.001...1)
        case .deepPress:
            // `threshold: learned` starts from today's built-in levels and learns the hand.
            let learned = map["threshold"].map { isLearned($0) } ?? false
            let threshold = learned ? PressLevels.start.threshold
                : map["threshold"].flatMap { number($0, "threshold", in: 0.01...1) } ?? 0.75
            let release = map["release"].flatMap { number($0, "release", in: 0...1) }
            if let release, release >= threshold, let node = map["release"] {
                issues.append(issue(at: node, "`release` (\(release.formatted)) must be below `threshold` (\(threshold.formatted)): the press ends when the force falls under it"))
            }
            let slop = map["slop"].flatMap { number($0, "slop", in: 0...10_000) } ?? 12
            let ordinary = parseOrdinary(map, threshold: threshold)
            settings = .deepPress(DeepPressRecognizer.Configuration(
                threshold: threshold, release: release ?? (learned ? PressLevels.start.release : nil), slop: slop,
                ordinary: ordinary ?? (learned ? PressLevels.start.ordinary : nil), learned: learned))
        case .squeeze:
            if let node = map["threshold"], node.scalar?.string == Self.learnedWord {
                issues.append(issue(at: node, "only a deep-press learns its threshold; give a squeeze a number between 0.01 and 1"))
            }
            let threshold = map["threshold"].flatMap { $0.scalar?.string == Self.learnedWord ? nil : number($0, "threshold", in: 0.01...1) } ?? 0.5
            let slop = map["slop"].flatMap { number($0, "slop", in: 0...10_000) } ?? 12
            let ordinary = parseOrdinary(map, threshold: threshold)
            settings = .squeeze(SqueezeRecognizer.Configuration(threshold: threshold, slop: slop, ordinary: ordinary))
        case .pressureThresholds:
            var thresholds: [Double] = []
            if let node = map["thresholds"] {
                if case .sequence(let items) = node {
                    thresholds = items.compactMap { number($0, "each threshold", in: 0...1) }
                } else {
                    issues.append(issue(at: node, "`thresholds` must be a list of forces between 0 and 1, like [0.25, 0.5, 0.75]"))
                }
            }
            let hysteresis = map["hysteresis"].flatMap { number($0, "hysteresis", in: 0...1) } ?? 0
            settings = .pressureThresholds(PressureThresholdsRecognizer.Configuration(thresholds: thresholds, hysteresis: hysteresis))
            crossUp = map["up"].map { parseActions($0, "up") } ?? []
            crossDown = map["down"].map { parseActions($0, "down") } ?? []
        case .knob:
            var center = KnobCenter(x: ScreenCoordinate(-120), y: ScreenCoordinate(120), monitor: nil)
            if let node = map["center"] {
                if let parsed = parseCenter(node) { center = parsed }
            } else {
                issues.append(issue(at: node, "a knob needs a `center: [x, y]` (pixels; negative counts from the right or bottom edge)"))
            }
            let inner = map["inner-radius"].flatMap { number($0, "inner-radius", in: 0...100_000) } ?? 0
            let outer = map["outer-radius"].flatMap { number($0, "outer-radius", in: 1...100_000) } ?? 100
            if inner >= outer {
                issues.append(issue(at: map["inner-radius"] ?? map["outer-radius"] ?? node,
                                    "`inner-radius` (\(inner.formatted)) must be smaller than `outer-radius` (\(outer.formatted))"))
            }
            let activation = map["activation"].flatMap { number($0, "activation", in: 0...360) } ?? 0
            settings = .knob(KnobSettings(centerX: center.x, centerY: center.y, monitor: center.monitor, innerRadius: inner,
                                          outerRadius: outer, activation: activation))
            steps = parseSteps(map, increase: "clockwise", decrease: "counterclockwise", defaultStep: 15, range: 0.1...360)
        case .longPress:
            let duration = map["duration"].flatMap { number($0, "duration", in: 0.05...10) } ?? 0.6
            let slop = map["slop"].flatMap { number($0, "slop", in: 0...10_000) } ?? 12
            settings = .longPress(LongPressRecognizer.Configuration(duration: duration, slop: slop))
        }
        var feedback: Set<FeedbackStyle> = kind == .deepPress ? [.pulse] : []
        // A knob that turns the volume shows the level on its ring unless told otherwise.
        let turnsVolume = ((steps?.increase ?? []) + (steps?.decrease ?? [])).contains { $0.name == "volume" }
        if kind == .knob && turnsVolume { feedback = [.ring] }
        if let node = map["feedback"] { feedback = parseFeedback(node) }
        guard issues.count == issueCount else { return nil }
        return Binding(name: name, recognizer: settings, devices: devices, pressure: pressure, applications: applications,
                       ownsContact: owns,
                       feedback: feedback, onStart: onStart, onEnd: onEnd, steps: steps,
                       onCrossUp: crossUp, onCrossDown: crossDown)
    }

    private static var gestureList: String { RecognizerKind.allCases.map(\.rawValue).joined(separator: ", ") }

    private mutating func parseSteps(_ map: YAMLNode.Mapping, increase: String, decrease: String, defaultStep: Double,
                                     range: ClosedRange<Double>) -> StepActions? {
        let up = map[increase].map { parseActions($0, increase) } ?? []
        let down = map[decrease].map { parseActions($0, decrease) } ?? []
        let step = map["step"].flatMap { number($0, "step", in: range) } ?? defaultStep
        guard !up.isEmpty || !down.isEmpty else { return nil }
        return StepActions(step: step, increase: up, decrease: down)
    }

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
        switch node {
        case .sequence(let items) where items.count == 2:
            guard let x = number(items[0], "center x", in: -100_000...100_000),
                  let y = number(items[1], "center y", in: -100_000...100_000) else { return nil }
            return (ScreenCoordinate(x), ScreenCoordinate(y))
        case .mapping(let map):
            checkKeys(map, allowed: ["x", "y"], context: "in `center`")
            guard let xNode = map["x"], let yNode = map["y"] else {
                issues.append(issue(at: node, "`center` needs both `x` and `y`"))
                return nil
            }
            guard let x = number(xNode, "center x", in: -100_000...100_000),
                  let y = number(yNode, "center y", in: -100_000...100_000) else { return nil }
            return (ScreenCoordinate(x), ScreenCoordinate(y))
        default:
            issues.append(issue(at: node, Self.centerExample))
            return nil
        }
    }

    // MARK: Devices and feedback

    private mutating func parseDevices(_ node: YAMLNode) -> [DeviceSelector] {
        let items: [YAMLNode]
        if case .sequence(let sequence) = node { items = Array(sequence) } else { items = [node] }
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
        let names = items.compactMap { string($0, "an application name") }
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

    // MARK: Actions

    private static let actionVerbs = ["click", "press", "release", "scroll", "key", "command", "volume"]
    private static let actionKeys = ["click", "press", "release", "scroll", "steps", "key", "command", "volume"]
    private static let buttonNames = ["left": 1, "middle": 2, "right": 3]

    private mutating func parseActions(_ node: YAMLNode, _ key: String) -> [Action] {
        if case .sequence(let items) = node {
            return items.compactMap { parseAction($0, key) }
        }
        return parseAction(node, key).map { [$0] } ?? []
    }

    private mutating func parseAction(_ node: YAMLNode, _ key: String) -> Action? {
        guard case .mapping(let map) = node else {
            issues.append(issue(at: node, "`\(key)` must be an action such as {click: 3}, {key: ctrl+z}, {scroll: up}, {volume: +5%}, {command: [notify-send, hi]}"))
            return nil
        }
        checkKeys(map, allowed: Self.actionKeys, context: "in an action")
        let verbs = Self.actionVerbs.filter { map[$0] != nil }
        guard verbs.count == 1, let verb = verbs.first, let value = map[verb] else {
            let found = verbs.isEmpty ? "none" : verbs.joined(separator: " and ")
            issues.append(issue(at: node, "an action does exactly one of \(Self.actionVerbs.joined(separator: ", ")) (found \(found))"))
            return nil
        }
        if map["steps"] != nil && verb != "scroll", let stepsNode = map["steps"] {
            issues.append(issue(at: stepsNode, "`steps` goes with `scroll` only"))
        }
        switch verb {
        case "click", "press", "release":
            guard let button = parseButton(value) else { return nil }
            return verb == "click" ? .click(button: button) : verb == "press" ? .press(button: button) : .release(button: button)
        case "scroll":
            guard let word = string(value, "scroll") else { return nil }
            guard let direction = ScrollDirection(rawValue: word) else {
                issues.append(issue(at: value, "`scroll` must be up, down, left or right, not `\(word)`"
                    + Suggestion.didYouMean(word, among: ScrollDirection.allCases.map(\.rawValue))))
                return nil
            }
            let steps = map["steps"].flatMap { integer($0, "steps", in: 1...100) } ?? 1
            return .scroll(direction, steps: steps)
        case "key":
            guard let text = string(value, "key") else { return nil }
            guard let combo = KeyCombo(parsing: text) else {
                issues.append(issue(at: value, "`\(text)` is not a key combination; write keys joined by +, like ctrl+z or XF86AudioRaiseVolume"))
                return nil
            }
            return .key(combo)
        case "volume":
            return parseVolume(value).map { .volume($0) }
        default:
            guard case .sequence(let items) = value else {
                issues.append(issue(at: value, "`command` is a list: the program and its arguments, run without a shell, like [notify-send, \"Deep press\"]"))
                return nil
            }
            let argv = items.compactMap { string($0, "a command argument") }
            guard argv.count == items.count else { return nil }
            guard let program = argv.first, !program.isEmpty else {
                issues.append(issue(at: value, "`command` needs at least the program to run"))
                return nil
            }
            return .command(argv)
        }
    }

    private mutating func parseVolume(_ node: YAMLNode) -> VolumeChange? {
        guard let text = string(node, "volume") else { return nil }
        if let change = VolumeChange(parsing: text) { return change }
        var hint = Suggestion.didYouMean(text, among: VolumeChange.words)
        let trimmed = text.trimmingWhitespace()
        if hint.isEmpty, let number = Int(trimmed), VolumeChange.percentRange.contains(abs(number)) {
            let signed = trimmed.hasPrefix("+") || trimmed.hasPrefix("-")
            hint = signed ? " (did you mean `\(trimmed)%`?)"
                : " (did you mean `+\(number)%` to raise it by \(number), or `\(number)%` to set the level?)"
        }
        issues.append(issue(at: node, "`volume` must be a change like +5% or -5%, a level like 40% (0% to 100%), or mute, unmute, mute-toggle; not `\(text)`" + hint))
        return nil
    }

    private mutating func parseButton(_ node: YAMLNode) -> Int? {
        if let word = node.scalar?.string, let button = Self.buttonNames[word] { return button }
        if let button = node.int, (1...32).contains(button) { return button }
        issues.append(issue(at: node, "a button is 1 to 32, or left, middle, right; not `\(node.scalar?.string ?? "this")`"))
        return nil
    }

    // MARK: Scalars

    private mutating func mapping(_ node: YAMLNode, _ what: String) -> YAMLNode.Mapping? {
        if case .mapping(let map) = node { return map }
        issues.append(issue(at: node, "\(what) must be a mapping of `key: value` lines"))
        return nil
    }

    private mutating func checkKeys(_ map: YAMLNode.Mapping, allowed: [String], context: String, kind: RecognizerKind? = nil) {
        for (key, _) in map {
            guard let word = key.scalar?.string else {
                issues.append(issue(at: key, "keys must be plain words"))
                continue
            }
            guard !allowed.contains(word) else { continue }
            var message = "unknown key `\(word)` \(context)" + Suggestion.didYouMean(word, among: allowed)
            if let kind, let owner = Self.gestureKeys.first(where: { $0.value.contains(word) })?.key, owner != kind {
                message = "`\(word)` does not apply to a \(kind.rawValue) binding (it belongs to \(owner.rawValue))"
            }
            message += "; valid keys: \(allowed.joined(separator: ", "))"
            issues.append(issue(at: key, message))
        }
    }

    private mutating func string(_ node: YAMLNode, _ what: String) -> String? {
        guard let scalar = node.scalar else {
            issues.append(issue(at: node, "`\(what)` must be a single word or quoted text"))
            return nil
        }
        return scalar.string
    }

    /// The word that asks a deep press to learn its threshold.
    static let learnedWord = "learned"

    /// Whether a deep press's `threshold` says `learned`. A word that is neither a number nor
    /// `learned` is reported here, with a suggestion for a misspelling (`learn`, `learnt`).
    private mutating func isLearned(_ node: YAMLNode) -> Bool {
        guard let scalar = node.scalar, node.float == nil, node.int == nil else { return false }
        let word = scalar.string
        if word == Self.learnedWord { return true }
        guard !word.isEmpty, node.bool == nil else { return false }
        let hint = ["learn", "learnt", "learning", "auto", "adaptive"].contains(word.lowercased())
            ? "; did you mean `learned`?" : Suggestion.didYouMean(word, among: [Self.learnedWord])
        issues.append(issue(at: node, "`threshold` must be a number between 0.01 and 1, or `learned`, not `\(word)`" + hint))
        return true
    }

    private mutating func number(_ node: YAMLNode, _ what: String, in range: ClosedRange<Double>) -> Double? {
        guard let scalar = node.scalar, let value = node.float ?? node.int.map(Double.init), !scalar.string.isEmpty else {
            issues.append(issue(at: node, "`\(what)` must be a number, not `\(node.scalar?.string ?? "a list or mapping")`"))
            return nil
        }
        guard value.isFinite, range.contains(value) else {
            issues.append(issue(at: node, "`\(what)` must be between \(range.lowerBound.formatted) and \(range.upperBound.formatted), not \(scalar.string)"))
            return nil
        }
        return value
    }

    private mutating func integer(_ node: YAMLNode, _ what: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = node.int else {
            issues.append(issue(at: node, "`\(what)` must be a whole number, not `\(node.scalar?.string ?? "a list or mapping")`"))
            return nil
        }
        guard range.contains(value) else {
            issues.append(issue(at: node, "`\(what)` must be between \(range.lowerBound) and \(range.upperBound), not \(value)"))
            return nil
        }
        return value
    }

    private mutating func bool(_ node: YAMLNode, _ what: String) -> Bool? {
        guard let value = node.bool else {
            issues.append(issue(at: node, "`\(what)` must be true or false, not `\(node.scalar?.string ?? "a list or mapping")`"))
            return nil
        }
        return value
    }

    private func issue(at node: YAMLNode, _ message: String) -> ConfigIssue {
        ConfigIssue(line: node.mark.line, column: node.mark.column, message: message)
    }

    private static func issue(for error: YAMLError) -> ConfigIssue {
        switch error {
        case .syntax(let problem, let mark):
            return ConfigIssue(line: mark.line, column: mark.column, message: "YAML syntax: \(problem)")
        case .duplicateKeys(let duplicates, let mark):
            let keys = duplicates.map { "`\($0)`" }.joined(separator: ", ")
            return ConfigIssue(line: mark.line, column: mark.column, message: "\(keys) is given twice in the same mapping; keep one")
        case .unreadable(let problem):
            return ConfigIssue(line: 1, column: 1, message: "cannot read the text: \(problem)")
        case .outOfMemory:
            return ConfigIssue(line: 1, column: 1, message: "YAML error: out of memory")
        }
    }
}
