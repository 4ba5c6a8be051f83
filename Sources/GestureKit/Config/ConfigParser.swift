/// Turns config YAML into bindings, collecting every problem with its line and column
/// instead of stopping at the first, so one `check` run shows everything to fix. Each
/// gesture's keys come from its schema (`RecognizerKind.schema`); bindings are read in
/// ConfigParser+Binding.swift, actions in ConfigParser+Action.swift.
struct ConfigParser {
    /// Every problem found so far, in the order found.
    var issues: [ConfigIssue] = []
    /// What `{key: ...}` may name; nil: not checked.
    var keyNames: (any KeyNames)?

    // MARK: Document

    mutating func parseDocument(_ text: String) -> BindingSet? {
        let root: YAMLNode?
        do {
            root = try YAMLDocument.read(text)
        } catch {
            issues.append(Self.issue(for: error, in: text))
            return nil
        }
        guard let root else {
            issues.append(ConfigIssue(line: 1, column: 1, message: "the config is empty; it needs a `bindings:` list (see the config reference)"))
            return nil
        }
        if case .sequence(let items) = root, items.contains(where: { $0["gesture"] != nil }) {
            // A binding, or a list of them, pasted as the whole file (docs/config.md shows many so).
            issues.append(issue(at: root, "this is a list of bindings, not a whole config: put it under `bindings:` (a line `bindings:` above it)"))
            return nil
        }
        guard let mapping = mapping(root, "the config") else { return nil }
        typealias Keys = BindingSet.Keys
        if mapping["gesture"] != nil, mapping["bindings"] == nil {
            issues.append(issue(at: root, "this is one binding, not a whole config: put it under `bindings:` as a list item (`bindings:`, then `  - name: ...`)"))
            return nil
        }
        checkKeys(mapping, allowed: BindingSet.schema.names, context: "at the top level")
        let decisionTimeout = number(mapping, Keys.decisionTimeout)
        let holdLimit = number(mapping, Keys.holdLimit)
        if let node = mapping[Keys.holdLimit.name], holdLimit < decisionTimeout {
            issues.append(issue(at: node, "`\(Keys.holdLimit.name)` (\(holdLimit.formatted)) must be at least `\(Keys.decisionTimeout.name)` (\(decisionTimeout.formatted)): it is the longest any press is held, the decision timeout the longest one whose force says nothing"))
        }
        let look = mapping[Keys.feedback.name].map { parseLook($0) } ?? .standard
        let learn = mapping[Keys.learn.name].flatMap { bool($0, Keys.learn.name) } ?? Keys.learn.standard
        guard let bindingsNode = mapping["bindings"] else {
            issues.append(issue(at: root, "the config has no `bindings:` list"))
            return nil
        }
        guard case .sequence(let sequence) = bindingsNode else {
            issues.append(issue(at: bindingsNode, "`bindings` must be a list of bindings (each item starting with `- name:`)"))
            return nil
        }
        var bindings: [Binding] = []
        var placed: [(Binding, YAMLNode)] = []
        var names: Set<String> = []
        for item in sequence {
            guard let binding = parseBinding(item) else { continue }
            if !names.insert(binding.name).inserted {
                issues.append(issue(at: item["name"] ?? item, "a binding named `\(binding.name)` is already defined; names must be unique"))
            }
            bindings.append(binding)
            placed.append((binding, item))
        }
        checkReleases(placed)
        return BindingSet(bindings: bindings, decisionTimeout: decisionTimeout, holdLimit: holdLimit, look: look, learn: learn)
    }

    /// A button some binding presses and none releases would stay held down until the bridge
    /// stops: the application would see a drag that never ends.
    private mutating func checkReleases(_ placed: [(Binding, YAMLNode)]) {
        let released = placed.reduce(into: Set<Int>()) { $0.formUnion($1.0.releasedButtons) }
        for (binding, node) in placed {
            var pressed: [Int] = []
            for case .press(let button) in binding.everyAction where !released.contains(button) && !pressed.contains(button) {
                pressed.append(button)
                issues.append(issue(at: node["action"] ?? node,
                                    "binding `\(binding.name)` presses button \(button) and no binding releases it: it would stay held down; add `on-end: {release: \(button)}`"))
            }
        }
    }

    /// The top-level `feedback:` section: `color`, `size`, `duration`; what it leaves out stays standard.
    private mutating func parseLook(_ node: YAMLNode) -> FeedbackLook {
        typealias Keys = FeedbackLook.Keys
        var look = FeedbackLook.standard
        guard let map = mapping(node, "`feedback` at the top level") else { return look }
        checkKeys(map, allowed: FeedbackLook.schema.names, context: "in `feedback`")
        if let colorNode = map[Keys.color.name], let text = string(colorNode, Keys.color.name) {
            if let color = FeedbackLook.color(hex: text) {
                look.color = color
            } else {
                issues.append(issue(at: colorNode, "`\(Keys.color.name)` must be a colour as `\"#rrggbb\"` (quoted: YAML reads `#` as a comment), not `\(text)`"))
            }
        }
        look.size = number(map, Keys.size)
        look.duration = number(map, Keys.duration)
        return look
    }

    // MARK: Scalars

    mutating func mapping(_ node: YAMLNode, _ what: String) -> YAMLNode.Mapping? {
        if case .mapping(let map) = node {
            // YAML 1.1's merge key is not read (libyaml leaves it to the reader): said where it
            // stands, rather than as the keys it would have brought missing.
            for (key, _) in map where key.scalar?.string == "<<" {
                issues.append(issue(at: key, "merge keys (`<<: *anchor`) are not supported; write the keys out, or use the anchor as a whole value (`action: *undo`)"))
            }
            return map
        }
        issues.append(issue(at: node, "\(what) must be a mapping of `key: value` lines"))
        return nil
    }

    mutating func checkKeys(_ map: YAMLNode.Mapping, allowed: [String], context: String, kind: RecognizerKind? = nil) {
        for (key, _) in map {
            guard let scalar = key.scalar else {
                issues.append(issue(at: key, "keys must be plain words"))
                continue
            }
            let word = scalar.string
            // A key tagged as another type (`!!null threshold:`) is not found by its word, and
            // was passed over (found in review of a YAML power user's config).
            guard scalar.resolvedTag == YAMLTag.resolving(word) else {
                issues.append(issue(at: key, "keys must be plain words: `\(word)` is written as another type (a tag, or quotes around a number)"))
                continue
            }
            guard !allowed.contains(word) else { continue }
            var message = "unknown key `\(word)` \(context)" + Suggestion.didYouMean(word, among: allowed)
            if let kind {
                let owners = RecognizerKind.allCases.filter { $0.schema.names.contains(word) }.map(\.rawValue)
                if !owners.isEmpty {
                    message = "`\(word)` does not apply to a \(kind.rawValue) binding (it belongs to \(owners.joined(separator: ", ")))"
                }
            }
            message += "; valid keys: \(allowed.joined(separator: ", "))"
            issues.append(issue(at: key, message))
        }
    }

    mutating func string(_ node: YAMLNode, _ what: String) -> String? {
        guard let scalar = node.scalar else {
            issues.append(issue(at: node, "`\(what)` must be a single word or quoted text"))
            return nil
        }
        return scalar.string
    }

    /// A value as a message shows it: its text, in quotes where it was quoted and would read as
    /// a number or a boolean without them, with why that makes it no number (found in review:
    /// `threshold: "0.8"` was told it must be a number, not `0.8`).
    static func shown(_ node: YAMLNode) -> String {
        guard let scalar = node.scalar else { return "`a list or mapping`" }
        guard scalar.style == .quoted, scalar.explicitTag == "tag:yaml.org,2002:str",
              [.int, .float, .bool].contains(YAMLTag.resolving(scalar.string)) else { return "`\(scalar.string)`" }
        return "`\"\(scalar.string)\"` (quoted, it is text: write it without the quotes)"
    }

    /// Whether `node` is a plain number written with a leading zero (`010`, `09`), reported:
    /// YAML 1.1 reads `010` as octal, 8, and `09` as 9, where a person padding a number means
    /// ten and nine (found in review of a YAML power user's config).
    mutating func leadingZero(_ node: YAMLNode, _ what: String) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain else { return false }
        let digits = scalar.string.filter { $0 != "_" }.drop { $0 == "-" || $0 == "+" }
        guard digits.count > 1, digits.first == "0", digits.dropFirst().first?.isWholeNumber == true else { return false }
        issues.append(issue(at: node, "`\(what)` is written with a leading zero: write it without (YAML reads some such numbers as octal: `010` is 8)"))
        return true
    }

    mutating func number(_ node: YAMLNode, _ what: String, in range: ClosedRange<Double>) -> Double? {
        guard !leadingZero(node, what) else { return nil }
        // A whole number first, as YAML 1.1 reads it (`0x10` is 16), then anything else that
        // is a number.
        guard let scalar = node.scalar, let value = node.int.map(Double.init) ?? node.float, !scalar.string.isEmpty else {
            issues.append(issue(at: node, "`\(what)` must be a number, not \(Self.shown(node))"))
            return nil
        }
        guard value.isFinite, range.contains(value) else {
            issues.append(issue(at: node, "`\(what)` must be between \(range.lowerBound.formatted) and \(range.upperBound.formatted), not \(scalar.string)"))
            return nil
        }
        return value
    }

    /// A number key's value: its default when the config leaves it out, or gives a wrong one
    /// (reported).
    mutating func number(_ map: YAMLNode.Mapping, _ key: NumberKey) -> Double {
        map[key.name].flatMap { number($0, key.name, in: key.range) } ?? key.standard
    }

    /// A key that must stay below `limit`, the value of the key it follows (`because` says
    /// why); nil when left out, so the configuration works out its default.
    mutating func number(_ map: YAMLNode.Mapping, _ key: DependentNumberKey, under limit: Double,
                         because why: String) -> Double? {
        guard let node = map[key.name], let value = number(node, key.name, in: key.range) else { return nil }
        if value >= limit {
            issues.append(issue(at: node, "`\(key.name)` (\(value.formatted)) must be below `\(key.base)` (\(limit.formatted)): \(why)"))
        }
        return value
    }

    /// A list of numbers; each wrong one is reported as `each` and left out. Empty when the key is.
    mutating func numbers(_ map: YAMLNode.Mapping, _ key: NumberListKey, each: String, example: String) -> [Double] {
        guard let node = map[key.name] else { return [] }
        guard case .sequence(let items) = node else {
            issues.append(issue(at: node, "`\(key.name)` must be a list of \(key.unit.rawValue)s between "
                + "\(key.range.lowerBound.formatted) and \(key.range.upperBound.formatted), like \(example)"))
            return []
        }
        return items.compactMap { number($0, each, in: key.range) }
    }

    mutating func integer(_ node: YAMLNode, _ what: String, in range: ClosedRange<Int>) -> Int? {
        guard !leadingZero(node, what) else { return nil }
        guard let value = node.int else {
            issues.append(issue(at: node, "`\(what)` must be a whole number, not \(Self.shown(node))"))
            return nil
        }
        guard range.contains(value) else {
            issues.append(issue(at: node, "`\(what)` must be between \(range.lowerBound) and \(range.upperBound), not \(value)"))
            return nil
        }
        return value
    }

    mutating func bool(_ node: YAMLNode, _ what: String) -> Bool? {
        guard let value = node.bool else {
            issues.append(issue(at: node, "`\(what)` must be true or false, not \(Self.shown(node))"))
            return nil
        }
        return value
    }

    func issue(at node: YAMLNode, _ message: String) -> ConfigIssue {
        ConfigIssue(line: node.mark.line, column: node.mark.column, message: message)
    }

    private static func issue(for error: YAMLError, in text: String) -> ConfigIssue {
        switch error {
        case .syntax(let problem, let mark):
            let hint = commentInFlow(before: mark.line, in: text)
                .map { "; line \($0): a `#` after a space starts a comment in YAML, which cut off the rest of the line (quote a colour: `\"#ff3366\"`)" }
                ?? indentedWithTab(near: mark.line, in: text)
                .map { "; line \($0) is indented with a tab, which YAML does not allow: indent with spaces" } ?? ""
            return ConfigIssue(line: mark.line, column: mark.column, message: "YAML syntax: \(problem)\(hint)")
        case .duplicateKeys(let duplicates, let mark):
            let keys = duplicates.map { "`\($0)`" }.joined(separator: ", ")
            return ConfigIssue(line: mark.line, column: mark.column, message: "\(keys) is given twice in the same mapping; keep one")
        case .unsupportedTag(let tag, let mark):
            return ConfigIssue(line: mark.line, column: mark.column,
                               message: "the tag `\(tag)` is not read here: a config is one file of plain values (no includes, no secrets or custom types); write the value itself")
        case .unreadable(let problem):
            return ConfigIssue(line: 1, column: 1, message: "cannot read the text: \(problem)")
        case .outOfMemory:
            return ConfigIssue(line: 1, column: 1, message: "YAML error: out of memory")
        }
    }

    /// A text's lines as libyaml counts them, so its places name them: a CRLF (Windows) file's
    /// too (split at "\n" alone it was one line, and lost these hints: found in review).
    static func lines(of text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }

    /// The line, of `line` and the one before it, whose indentation holds a tab. Found in
    /// review: a tab-indented list said only "found character that cannot start any token".
    static func indentedWithTab(near line: Int, in text: String) -> Int? {
        let lines = Self.lines(of: text)
        return [line, line - 1].first { number in
            number >= 1 && number <= lines.count && lines[number - 1].prefix { $0 == " " || $0 == "\t" }.contains("\t")
        }
    }

    /// The line, `line` or the one before it, whose comment begins inside a `{…}` or `[…]` it
    /// left open (`feedback: {color: #ff3366}`): the comment took the closing bracket, and the
    /// parser stumbles at the end of that line or on the next. Nil when there is none, or
    /// when the flow continues on purpose over lines (a comment there is theirs, and what it
    /// holds would not close the brackets left open).
    static func commentInFlow(before line: Int, in text: String) -> Int? {
        let lines = Self.lines(of: text)
        for number in [line, line - 1] where number >= 1 && number <= lines.count {
            var open = 0
            var quote: Character?
            var previous: Character = " "
            let characters = Array(lines[number - 1])
            for (index, character) in characters.enumerated() {
                if let current = quote {
                    if character == current { quote = nil }
                } else if (character == "\"" || character == "'") && " \t[{,:".contains(previous) {
                    // A quote opens a scalar only at its start: `Bob's` is plain text.
                    quote = character
                } else if character == "{" || character == "[" {
                    open += 1
                } else if character == "}" || character == "]" {
                    open -= 1
                } else if character == "#", previous == " " || previous == "\t" {
                    let comment = characters[(index + 1)...]
                    let closes = comment.filter { $0 == "}" || $0 == "]" }.count - comment.filter { $0 == "{" || $0 == "[" }.count
                    if open > 0, closes >= open { return number }
                    break
                }
                previous = character
            }
        }
        return nil
    }
}
