import Foundation
import Testing
@testable import GestureKit

/// Each gesture's keys are declared once, beside its recognizer's configuration. These tests
/// hold the rest to that declaration: docs/config.md's tables, the parser's defaults and
/// ranges, the recognizers' own defaults and `print-config`'s keys.
@Suite("Config: one schema per gesture")
struct ConfigSchemaTests {
    static let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/config.md")

    /// What a gesture's binding needs besides its name, gesture and the key under test.
    static func binding(_ kind: RecognizerKind, _ body: String = "") -> String {
        let center = kind == .knob && !body.contains("center:") ? "    center: [500, 500]\n" : ""
        return "bindings:\n  - name: probe\n    gesture: \(kind.rawValue)\n" + center + body
    }

    /// The gesture's settings that are numbers, by key, as the recognizer holds them.
    static func numbers(_ settings: RecognizerSettings, steps: StepActions? = nil) -> [String: Double] {
        var values: [String: Double]
        switch settings {
        case .force(let c):
            values = ["maximum": c.maximum]
        case .deepPress(let c):
            values = ["threshold": c.threshold, "release": c.release, "slop": c.slop, "ordinary": c.ordinary]
        case .squeeze(let c):
            values = ["threshold": c.threshold, "slop": c.slop, "ordinary": c.ordinary]
        case .pressureThresholds(let c):
            values = ["hysteresis": c.hysteresis]
        case .knob(let c):
            values = ["inner-radius": c.innerRadius, "outer-radius": c.outerRadius, "activation": c.activation]
        case .longPress(let c):
            values = ["duration": c.duration, "slop": c.slop]
        }
        if let steps { values["step"] = steps.step }
        return values
    }

    /// The recognizer's configuration when nothing is given.
    static func recognizerDefaults(_ kind: RecognizerKind) -> RecognizerSettings {
        switch kind {
        case .force: return .force(ForceRecognizer.Configuration())
        case .deepPress: return .deepPress(DeepPressRecognizer.Configuration())
        case .squeeze: return .squeeze(SqueezeRecognizer.Configuration())
        case .pressureThresholds: return .pressureThresholds(PressureThresholdsRecognizer.Configuration(thresholds: []))
        case .knob: return .knob(KnobSettings(centerX: ScreenCoordinate(500), centerY: ScreenCoordinate(500)))
        case .longPress: return .longPress(LongPressRecognizer.Configuration())
        }
    }

    // MARK: The reference

    /// docs/config.md's table for `kind`: one row a key, with the type, default and range columns.
    static func documentedRows(_ kind: RecognizerKind) throws -> [String: [String]] {
        try documentedRows(after: "**\(kind.rawValue)**:")
    }

    /// The first table after the line starting `anchor`: one row a key, with the type, default
    /// and range columns.
    static func documentedRows(after anchor: String) throws -> [String: [String]] {
        let text = try String(contentsOf: reference, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex { $0.hasPrefix(anchor) }, "docs/config.md has no line starting \(anchor)")
        let header = try #require(lines[heading...].firstIndex { $0.hasPrefix("| key |") })
        #expect(lines[header] == "| key | type | default | range | meaning |", "\(anchor): \(lines[header])")
        var rows: [String: [String]] = [:]
        for line in lines[(header + 2)...].prefix(while: { $0.hasPrefix("|") }) {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 5 else {
                Issue.record("\(anchor): a row of \(cells.count) cells: \(line)")
                continue
            }
            for key in cells[0].split(separator: ",") {
                let name = key.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                #expect(rows[name] == nil, "\(anchor): `\(name)` documented twice")
                rows[name] = Array(cells[1...3])
            }
        }
        return rows
    }

    @Test("docs/config.md documents every key of every gesture, with the schema's type, default and range",
          arguments: RecognizerKind.allCases)
    func referenceTable(_ kind: RecognizerKind) throws {
        let rows = try Self.documentedRows(kind)
        #expect(Set(rows.keys) == Set(kind.schema.names), "\(kind.rawValue): documented \(rows.keys.sorted())")
        for key in kind.schema.keys {
            guard let row = rows[key.name] else { continue }
            #expect(row == [key.type, key.standard, key.range], "\(kind.rawValue) `\(key.name)`")
        }
    }

    @Test("docs/config.md's tables of the top level, `feedback` and every binding's keys are the schema's")
    func sectionTables() throws {
        for (anchor, schema) in [("## Top level", BindingSet.schema), ("`feedback` takes", FeedbackLook.schema),
                                 ("## Every binding", Binding.schema)] {
            let rows = try Self.documentedRows(after: anchor)
            #expect(Set(rows.keys) == Set(schema.names), "\(anchor): documented \(rows.keys.sorted())")
            for key in schema.keys {
                #expect(rows[key.name] == [key.type, key.standard, key.range], "\(anchor) `\(key.name)`")
            }
        }
    }

    @Test("each gesture declares a key once, and none of the keys every binding has")
    func keysAreDistinct() {
        for kind in RecognizerKind.allCases {
            #expect(Set(kind.schema.names).count == kind.schema.keys.count, "\(kind.rawValue) declares a key twice")
            #expect(Set(kind.schema.names).isDisjoint(with: ConfigParser.commonKeys), "\(kind.rawValue)")
        }
    }

    // MARK: Defaults

    @Test("a key left out takes the schema's default, which is the recognizer's own", arguments: RecognizerKind.allCases)
    func defaults(_ kind: RecognizerKind) throws {
        let actions = kind.stepKeys.map { "    \($0.increase.name): {click: 1}\n" } ?? ""
        let config = try ConfigLoader.parse(Self.binding(kind, actions), file: "t")
        let binding = try #require(config.bindings.first)
        let parsed = Self.numbers(binding.recognizer, steps: binding.steps)
        let own = Self.numbers(Self.recognizerDefaults(kind))
        for key in kind.schema.keys {
            guard key.bounds != nil, key.type != "list of forces", !key.name.hasPrefix("center") else { continue }
            let value = try #require(parsed[key.name], "\(kind.rawValue) `\(key.name)` is not read back")
            if let standard = Double(key.standard) {
                #expect(value == standard, "\(kind.rawValue) `\(key.name)`")
            } else {
                // A default that follows another key: `threshold − 0.15`, `threshold ÷ 2, to hundredths`, `outer-radius ÷ 4`.
                let base = try #require(key.below.flatMap { parsed[$0] }, "\(kind.rawValue) `\(key.name)`: \(key.standard)")
                let expected: Double
                if key.standard.hasSuffix(" ÷ 2, to hundredths") {
                    expected = (base * 50).rounded() / 100
                } else if key.standard.hasSuffix(" ÷ 4") {
                    expected = base / 4
                } else if key.standard.hasSuffix(", at least \(try #require(key.below)) ÷ 2") {
                    let amount = try #require(key.standard.split(separator: ",").first?.split(separator: " ").last.flatMap { Double($0) })
                    expected = Swift.max(base - amount, base / 2)
                } else {
                    let amount = try #require(key.standard.split(separator: " ").last.flatMap { Double($0) })
                    expected = Swift.max(0, base - amount)
                }
                #expect(abs(value - expected) < 1e-12, "\(kind.rawValue) `\(key.name)`: \(value), not \(key.standard) = \(expected)")
            }
            if key.name != "step" {
                #expect(own[key.name] == value, "\(kind.rawValue) `\(key.name)`: the recognizer's default is \(String(describing: own[key.name]))")
            }
        }
        if case .pressureThresholds(let c) = binding.recognizer { #expect(c.thresholds.isEmpty) }
    }

    @Test("a dependent default follows the value given for the key it depends on")
    func dependentDefaults() throws {
        let deep = try ConfigLoader.parse(Self.binding(.deepPress, "    threshold: 0.9\n"), file: "t")
        guard case .deepPress(let c) = try #require(deep.bindings.first).recognizer else {
            Issue.record("not a deep press")
            return
        }
        #expect(abs(c.release - 0.75) < 1e-12 && c.ordinary == 0.45)
        let low = try ConfigLoader.parse(Self.binding(.deepPress, "    threshold: 0.1\n"), file: "t")
        guard case .deepPress(let lowPress) = try #require(low.bindings.first).recognizer else { return }
        #expect(lowPress.release == 0.05, "at least half the threshold: a release of 0 would never come")
    }

    @Test("`threshold: learned` starts at today's levels; `learn: false` still reads")
    func learned() throws {
        let config = try ConfigLoader.parse("learn: false\n" + Self.binding(.deepPress, "    threshold: learned\n"), file: "t")
        #expect(!config.learn)
        guard case .deepPress(let c) = try #require(config.bindings.first).recognizer else {
            Issue.record("not a deep press")
            return
        }
        #expect(c.learned && c.threshold == PressLevels.start.threshold && c.release == PressLevels.start.release
            && c.ordinary == PressLevels.start.ordinary)
        let rendered = ConfigRenderer.render(config)
        #expect(rendered.contains("    threshold: learned\n") && rendered.contains("learn: false\n"), "\(rendered)")
        #expect(try ConfigLoader.parse(rendered, file: "rendered.yaml") == config)
    }

    // MARK: Ranges

    /// A step outside a range: a tenth of a percent of its width, to a power of ten.
    static func nudge(_ range: ClosedRange<Double>) -> Double {
        pow(10, (log10(range.upperBound - range.lowerBound)).rounded(.down) - 1)
    }

    /// The key set to `value` in a binding of `kind`, as YAML.
    static func setting(_ key: ConfigKey, to value: Double, in kind: RecognizerKind) -> String {
        switch key.type {
        case "list of forces": return binding(kind, "    \(key.name): [\(value.formatted)]\n")
        case _ where key.name == "center": return binding(kind, "    center: [\(value.formatted), 0]\n")
        default: return binding(kind, "    \(key.name): \(value.formatted)\n")
        }
    }

    /// What the parser calls the key in a message about one number.
    static func label(_ key: ConfigKey) -> String {
        switch key.name {
        case "thresholds": return "each threshold"
        case "center": return "center x"
        default: return key.name
        }
    }

    @Test("every number's range is enforced at both ends: its ends are taken, a step beyond is refused, and where it is",
          arguments: RecognizerKind.allCases)
    func ranges(_ kind: RecognizerKind) {
        for key in kind.schema.keys {
            guard let range = key.bounds else { continue }
            let label = Self.label(key)
            let between = "`\(label)` must be between \(range.lowerBound.formatted) and \(range.upperBound.formatted)"
            for outside in [range.lowerBound - Self.nudge(range), range.upperBound + Self.nudge(range)] {
                let issues = problems(Self.setting(key, to: outside, in: kind))
                #expect(issues.count == 1 && issues.first?.message.hasPrefix(between) == true,
                        "\(kind.rawValue) `\(key.name)`: \(outside.formatted): \(issues)")
                #expect(issues.first?.line == 4 || (kind == .knob && issues.first?.line == 5), "\(issues)")
            }
            for end in [range.lowerBound, range.upperBound] {
                let issues = problems(Self.setting(key, to: end, in: kind))
                // A key that must stay below another meets it at its top end.
                let expected = key.below.map { below in end == range.upperBound ? ["`\(below)`"] : [] } ?? []
                #expect(issues.count == expected.count, "\(kind.rawValue) `\(key.name)`: \(end.formatted): \(issues)")
                for (issue, word) in zip(issues, expected) {
                    #expect(issue.message.contains(word) && !issue.message.contains("between"), "\(issue)")
                }
            }
        }
    }

    @Test("a key below another is refused at and above it, and says which")
    func belowAnother() {
        for kind in RecognizerKind.allCases {
            for key in kind.schema.keys {
                guard let below = key.below else { continue }
                let body = key.name == "inner-radius" ? "    outer-radius: 50\n    inner-radius: 50\n"
                    : "    threshold: 0.5\n    \(key.name): 0.5\n"
                let issues = problems(Self.binding(kind, body))
                let limit = key.name == "inner-radius" ? "`\(below)` (50)" : "`\(below)` (0.5)"
                #expect(issues.count == 1 && issues.first?.message.contains(limit) == true, "\(kind.rawValue) `\(key.name)`: \(issues)")
            }
        }
    }

    @Test("the top level's and `feedback`'s numbers: defaults, both ends of each range, and `hold-limit` at least `decision-timeout`")
    func sectionNumbers() throws {
        let empty = try ConfigLoader.parse("bindings: []\n", file: "t")
        #expect(empty.decisionTimeout == BindingSet.Keys.decisionTimeout.standard && empty.holdLimit == BindingSet.Keys.holdLimit.standard)
        #expect(empty.learn == BindingSet.Keys.learn.standard && empty.look == .standard)
        #expect(empty.look.hexColor == "#3399ff" && empty.look.size == 1 && empty.look.duration == 0.25)
        let keys: [(NumberKey, (String) -> String)] = [
            (BindingSet.Keys.decisionTimeout, { "decision-timeout: \($0)\nbindings: []\n" }),
            (BindingSet.Keys.holdLimit, { "decision-timeout: 0\nhold-limit: \($0)\nbindings: []\n" }),
            (FeedbackLook.Keys.size, { "feedback: {size: \($0)}\nbindings: []\n" }),
            (FeedbackLook.Keys.duration, { "feedback: {duration: \($0)}\nbindings: []\n" }),
        ]
        for (key, yaml) in keys {
            let between = "`\(key.name)` must be between \(key.range.lowerBound.formatted) and \(key.range.upperBound.formatted)"
            for outside in [key.range.lowerBound - Self.nudge(key.range), key.range.upperBound + Self.nudge(key.range)] {
                let issues = problems(yaml(outside.formatted))
                #expect(issues.count == 1 && issues.first?.message.hasPrefix(between) == true, "\(key.name) \(outside): \(issues)")
            }
            for end in [key.range.lowerBound, key.range.upperBound] {
                #expect(problems(yaml(end.formatted)).isEmpty, "\(key.name) \(end)")
            }
        }
        let short = problems("decision-timeout: 2\nhold-limit: 1.5\nbindings: []\n")
        #expect(short.count == 1 && short.first?.message.contains("must be at least `decision-timeout` (2)") == true, "\(short)")
        #expect(problems("decision-timeout: 2\nhold-limit: 2\nbindings: []\n").isEmpty)
    }

    @Test("a scroll's `steps`: its default, both ends of its range, as the table of actions says")
    func scrollSteps() throws {
        let key = Action.Keys.steps
        let text = try String(contentsOf: Self.reference, encoding: .utf8)
        #expect(text.contains("| scroll | `{scroll: down, steps: 3}` | `up`, `down`, `left`, `right`; \(key.summary) |"), "\(key.summary)")
        func scroll(_ steps: String?) -> String {
            Self.binding(.deepPress, "    action: {scroll: down\(steps.map { ", steps: \($0)" } ?? "")}\n")
        }
        let plain = try ConfigLoader.parse(scroll(nil), file: "t")
        #expect(plain.bindings.first?.onStart == [.scroll(.down, steps: key.standard)])
        for end in [key.range.lowerBound, key.range.upperBound] {
            #expect(problems(scroll("\(end)")).isEmpty, "\(end)")
        }
        for outside in [key.range.lowerBound - 1, key.range.upperBound + 1] {
            let issues = problems(scroll("\(outside)"))
            #expect(issues.count == 1 && issues.first?.message.hasPrefix("`steps` must be between 1 and 100, not \(outside)") == true,
                    "\(issues)")
        }
    }

    // MARK: Keys

    @Test("a key of other gestures names each of them")
    func otherGesturesKey() {
        let issues = problems(Self.binding(.force, "    slop: 3\n"))
        #expect(issues.first?.message.hasPrefix("`slop` does not apply to a force binding (it belongs to deep-press, squeeze, long-press)") == true,
                "\(issues)")
        #expect(issues.first?.line == 4 && issues.first?.column == 5)
    }

    @Test("print-config writes each gesture's keys by the schema's names, in its order", arguments: RecognizerKind.allCases)
    func printConfigFollowsSchema(_ kind: RecognizerKind) throws {
        var body = kind.schema.keys.filter { $0.type == "action or list" }.map { "    \($0.name): {click: 1}\n" }.joined()
        if kind == .pressureThresholds { body += "    thresholds: [0.5]\n" }
        let config = try ConfigLoader.parse(Self.binding(kind, body), file: "t")
        let rendered = ConfigRenderer.render(config)
        let keys = rendered.split(separator: "\n").filter { $0.hasPrefix("    ") && !$0.hasPrefix("     ") }
            .compactMap { $0.split(separator: ":").first.map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { !ConfigParser.commonKeys.contains($0) }
        #expect(keys == kind.schema.names, "\(rendered)")
        #expect(try ConfigLoader.parse(rendered, file: "rendered.yaml") == config)
    }
}
