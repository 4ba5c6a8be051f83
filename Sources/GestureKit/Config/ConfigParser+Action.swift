/// Actions: what a gesture does, `{click: right}`, `{key: ctrl+z}`, `{volume: +5%}`, ...
extension ConfigParser {
    private static let actionVerbs = ["click", "press", "release", "scroll", "key", "command", "volume"]
    private static let actionKeys = ["click", "press", "release", "scroll", "steps", "key", "command", "volume"]
    private static let buttonNames = ["left": 1, "middle": 2, "right": 3]

    /// One action or a list of them; `key` names the key that gives them in messages.
    mutating func parseActions(_ node: YAMLNode, _ key: String) -> [Action] {
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
        let steps = Action.Keys.steps
        if verb != "scroll", let stepsNode = map[steps.name] {
            issues.append(issue(at: stepsNode, "`\(steps.name)` goes with `scroll` only"))
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
            return .scroll(direction, steps: map[steps.name].flatMap { integer($0, steps.name, in: steps.range) } ?? steps.standard)
        case "key":
            guard let text = string(value, "key") else { return nil }
            guard let combo = KeyCombo(parsing: text) else {
                issues.append(issue(at: value, "`\(text)` is not a key combination; write keys joined by +, like ctrl+z or XF86AudioRaiseVolume"))
                return nil
            }
            if let capital = combo.capitalBesideModifiers {
                // As menus write shortcuts (Ctrl+Z); the capital letter's keysym would send Shift too.
                let lower = combo.keys.map { $0 == capital ? capital.lowercased() : $0 }.joined(separator: "+")
                let shifted = (combo.keys.dropLast() + ["shift", capital.lowercased()]).joined(separator: "+")
                issues.append(issue(at: value, "`\(text)` names the capital letter \(capital), which would add Shift; write "
                    + "`\(lower)` for the \(capital.lowercased()) key, or `\(shifted)` to say Shift too"))
                return nil
            }
            if let keyNames, let unknown = zip(combo.keys, combo.keysymNames).first(where: { !keyNames.knows($0.1) }) {
                // Found in review: `ctrl+-`, `kp_add`, `pageup` were refused with no word of the name meant.
                let meant = keyNames.suggestion(for: unknown.0).map { suggested in
                    "did you mean `\(combo.keys.map { $0 == unknown.0 ? suggested : $0 }.joined(separator: "+"))`? "
                } ?? ""
                issues.append(issue(at: value, "unknown key `\(unknown.0)` in `\(text)`; \(meant)use X keysym names such as ctrl+z, Return, "
                    + "XF86AudioRaiseVolume (`xev` shows a key's name)"))
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
            // What a shell would make of `~`, `$` or `|` nothing does here: `check` warns of it
            // (`BindingSet.shellWarnings`). Not an error: `|` may be meant for the program
            // (`xdotool type "|"`, `find ... -exec rm {} ";"`), and a config that ran before must
            // not stop the bridge after an upgrade.
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
        // `click: 010` was button 8, back (found in review of the day's diff).
        guard !leadingZero(node, "a button") else { return nil }
        if let word = node.scalar?.string, let button = Self.buttonNames[word] { return button }
        if let button = node.int, Action.buttons.contains(button) { return button }
        let word = node.scalar?.string ?? "this"
        issues.append(issue(at: node, "a button is \(Action.buttons.lowerBound) to \(Action.buttons.upperBound) (8 and 9 are back and forward), or left, middle, right; not \(Self.shown(node))"
            + Suggestion.didYouMean(word, among: Self.buttonNames.keys.sorted())))
        return nil
    }
}
