/// The config's keys, declared once. Each gesture declares its keys beside its recognizer's
/// `Configuration` (`DeepPressRecognizer.Configuration.Keys` and `.schema`, and so on): the
/// name, what a value is, the values accepted and the value taken when a key is left out. The
/// recognizers take their defaults from these declarations, the parser reads through them,
/// `print-config` writes through them, and a test holds docs/config.md's tables to them.

/// What a number in the config measures, as the config reference's `type` column names it.
public enum ConfigUnit: String, Sendable, Hashable, CaseIterable {
    /// 0...1 of the device's pressure range.
    case force
    case pixels
    case degrees
    case seconds
    /// A multiplier (the feedback's size).
    case scale
}

/// A number a config may give.
public struct NumberKey: Sendable, Hashable {
    public let name: String
    public let unit: ConfigUnit
    /// The values accepted, both ends included.
    public let range: ClosedRange<Double>
    /// The value when the config leaves the key out.
    public let standard: Double
    /// A key this one's value must stay below (`inner-radius` below `outer-radius`).
    public let below: String?
    /// A key this one's value must be at least (`hold-limit` at least `decision-timeout`).
    public let atLeast: String?

    public init(_ name: String, _ unit: ConfigUnit, _ range: ClosedRange<Double>, standard: Double, below: String? = nil,
                atLeast: String? = nil) {
        self.name = name
        self.unit = unit
        self.range = range
        self.standard = standard
        self.below = below
        self.atLeast = atLeast
    }

    public var entry: ConfigKey {
        let span = ConfigKey.span(range, below: below) + (atLeast.map { ", at least `\($0)`" } ?? "")
        return ConfigKey(name: name, type: unit.rawValue, standard: standard.formatted, range: span, bounds: range, below: below)
    }
}

/// A number that, left out, follows another key of the same binding (`release` follows
/// `threshold`), and must stay below it.
public struct DependentNumberKey: Sendable, Hashable {
    /// How the value follows the key it depends on when it is left out.
    public enum Rule: Sendable, Hashable {
        /// That key's value less this much, but never below half of it (found in review of the
        /// seeds: a deep press at 0.1 had a release of 0, which no force falls below, so it
        /// ended only at the lift).
        case less(Double)
        /// Half that key's value, to hundredths (`HoldPolicy.defaultOrdinary`).
        case half
        /// A quarter of that key's value.
        case quarter
    }

    public let name: String
    public let unit: ConfigUnit
    public let range: ClosedRange<Double>
    /// The key this one follows and stays below.
    public let base: String
    public let rule: Rule

    public init(_ name: String, _ unit: ConfigUnit, _ range: ClosedRange<Double>, follows base: String, by rule: Rule) {
        self.name = name
        self.unit = unit
        self.range = range
        self.base = base
        self.rule = rule
    }

    /// The value when the config leaves the key out and `base` is `value`.
    public func standard(following value: Double) -> Double {
        switch rule {
        // To a billionth: 0.7 less 0.15 is 0.55 in the printed config, not 0.5499999999999999.
        case .less(let amount): return Swift.max(range.lowerBound, ((Swift.max(value - amount, value / 2)) * 1e9).rounded() / 1e9)
        case .half: return HoldPolicy.defaultOrdinary(threshold: value)
        case .quarter: return value / 4
        }
    }

    public var entry: ConfigKey {
        let standard = switch rule {
        case .less(let amount): "\(base) − \(amount.formatted), at least \(base) ÷ 2"
        case .half: "\(base) ÷ 2, to hundredths"
        case .quarter: "\(base) ÷ 4"
        }
        return ConfigKey(name: name, type: unit.rawValue, standard: standard, range: ConfigKey.span(range, below: base),
                         bounds: range, below: base)
    }
}

/// A whole number a config may give (a scroll's `steps`).
public struct WholeNumberKey: Sendable, Hashable {
    public let name: String
    /// The values accepted, both ends included.
    public let range: ClosedRange<Int>
    /// The value when the config leaves the key out.
    public let standard: Int

    public init(_ name: String, _ range: ClosedRange<Int>, standard: Int) {
        self.name = name
        self.range = range
        self.standard = standard
    }

    /// How the config reference's table of actions says it: `` `steps` 1–100 (default 1) ``.
    public var summary: String {
        "`\(name)` \(range.lowerBound)–\(range.upperBound) (default \(standard))"
    }
}

/// A deep press's `threshold`: a number, or the word `learned` for levels learned per device
/// (`HandLearner`), which start at `PressLevels.start`.
public struct LearnableNumberKey: Sendable, Hashable {
    public let number: NumberKey
    /// The word that asks for learned levels.
    public let word: String

    public init(_ number: NumberKey, or word: String) {
        self.number = number
        self.word = word
    }

    public var name: String { number.name }

    public var entry: ConfigKey {
        var entry = number.entry
        entry.type = "\(number.unit.rawValue), or `\(word)`"
        return entry
    }
}

/// A list of numbers (`thresholds`), each within a range; left out, the list is empty.
public struct NumberListKey: Sendable, Hashable {
    public let name: String
    public let unit: ConfigUnit
    /// The values each item may take, both ends included.
    public let range: ClosedRange<Double>

    public init(_ name: String, of unit: ConfigUnit, _ range: ClosedRange<Double>) {
        self.name = name
        self.unit = unit
        self.range = range
    }

    public var entry: ConfigKey {
        ConfigKey(name: name, type: "list of \(unit.rawValue)s", standard: "[]", range: "each " + ConfigKey.span(range),
                  bounds: range, below: nil)
    }
}

/// A point on the screen in pixels (a knob's `center`), which the config must give.
public struct PointKey: Sendable, Hashable {
    public let name: String
    /// The values each coordinate may take, both ends included.
    public let range: ClosedRange<Double>

    public init(_ name: String, _ range: ClosedRange<Double>) {
        self.name = name
        self.range = range
    }

    public var entry: ConfigKey {
        ConfigKey(name: name, type: "`[x, y]` pixels, or `{monitor: NAME, at: [x, y]}`", standard: ConfigKey.required,
                  range: "each " + ConfigKey.span(range), bounds: range, below: nil)
    }
}

/// Actions a gesture fires (`clockwise`, `up`, ...); left out, none.
public struct ActionsKey: Sendable, Hashable {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public var entry: ConfigKey {
        ConfigKey(name, "action or list", standard: "none")
    }
}

/// `true` or `false`.
public struct FlagKey: Sendable, Hashable {
    public let name: String
    /// The value when the config leaves the key out.
    public let standard: Bool

    public init(_ name: String, standard: Bool) {
        self.name = name
        self.standard = standard
    }

    public var entry: ConfigKey {
        ConfigKey(name, "true / false", standard: "\(standard)")
    }
}

/// A colour written `"#rrggbb"`.
public struct ColorKey: Sendable, Hashable {
    public let name: String
    /// The value when the config leaves the key out, as 0xrrggbb.
    public let standard: UInt32

    public init(_ name: String, standard: UInt32) {
        self.name = name
        self.standard = standard
    }

    /// Red, green and blue of the default, 0...255.
    public var standardRGB: (red: UInt8, green: UInt8, blue: UInt8) {
        (UInt8(truncatingIfNeeded: standard >> 16), UInt8(truncatingIfNeeded: standard >> 8), UInt8(truncatingIfNeeded: standard))
    }

    public var entry: ConfigKey {
        let rgb = standardRGB
        let hex = FeedbackLook(color: rgb, size: 1, duration: 1).hexColor
        return ConfigKey(name: name, type: "`\"#rrggbb\"`, quoted (YAML reads a bare `#` as a comment)",
                         standard: "`\"\(hex)\"`", range: "", bounds: nil, below: nil)
    }
}

/// A section of the config, a list or a mapping of its own keys.
public struct SectionKey: Sendable, Hashable {
    public let name: String
    public let type: String
    /// What the config gets when it leaves the section out, as the reference says it.
    public let standard: String

    public init(_ name: String, _ type: String, standard: String) {
        self.name = name
        self.type = type
        self.standard = standard
    }

    public var entry: ConfigKey {
        ConfigKey(name, type, standard: standard)
    }
}

/// The keys of a gesture whose value turns into repeated actions (a force's, a knob's): one
/// `increase` or `decrease` action per `step` it travels.
public struct StepKeys: Sendable, Hashable {
    public let step: NumberKey
    public let increase: ActionsKey
    public let decrease: ActionsKey
}

/// One key as the config reference's tables show it: its name, type, default and range.
public struct ConfigKey: Sendable, Hashable {
    public var name: String
    /// What a value is: `force`, `pixels`, `list of forces`, ...
    public var type: String
    /// The value taken when the key is left out, as the reference writes it.
    public var standard: String
    /// The values accepted, as the reference writes them (empty: any of the type).
    public var range: String
    /// For a number (or each number of a list or point): the values accepted.
    public var bounds: ClosedRange<Double>?
    /// The key a number must stay below.
    public var below: String?

    /// The default of a key the config must give.
    public static let required = "(required)"

    /// `0.01–1`, and `, below `threshold`` for a number that must stay below another.
    static func span(_ range: ClosedRange<Double>, below: String? = nil) -> String {
        "\(range.lowerBound.formatted)–\(range.upperBound.formatted)" + (below.map { ", below `\($0)`" } ?? "")
    }
}

extension ConfigKey {
    /// A key whose value has a shape of its own, described in words (`devices`, `applications`).
    init(_ name: String, _ type: String, standard: String) {
        self.init(name: name, type: type, standard: standard, range: "", bounds: nil, below: nil)
    }

    /// `` `a`, `b`, `c` ``: words a key takes, as the reference lists them.
    static func words(_ words: [String]) -> String {
        words.map { "`\($0)`" }.joined(separator: ", ")
    }
}

/// The keys of a section of the config other than a gesture's own: the top level, its
/// `feedback`, the keys every binding has.
public struct SectionSchema: Sendable, Hashable {
    public let keys: [ConfigKey]

    public init(_ keys: [ConfigKey]) {
        self.keys = keys
    }

    public var names: [String] { keys.map(\.name) }
}

/// One gesture's own keys, in the order `print-config` writes them.
public struct GestureSchema: Sendable, Hashable {
    public let kind: RecognizerKind
    public let keys: [ConfigKey]

    public init(_ kind: RecognizerKind, _ keys: [ConfigKey]) {
        self.kind = kind
        self.keys = keys
    }

    public var names: [String] { keys.map(\.name) }
}

extension Binding {
    /// The keys every binding may have, whatever its gesture, in the order `print-config`
    /// writes them; the words they take come from the enums that hold them.
    public static let schema: SectionSchema = {
        let owning = RecognizerKind.allCases.filter(\.ownsContactByDefault).map(\.rawValue)
        let watching = RecognizerKind.allCases.filter { !$0.ownsContactByDefault }.map(\.rawValue)
        return SectionSchema([
            ConfigKey("name", "text", standard: ConfigKey.required),
            ConfigKey("gesture", ConfigKey.words(RecognizerKind.allCases.map(\.rawValue)), standard: ConfigKey.required),
            ConfigKey("devices", "list of \(ConfigKey.words(DeviceKind.allCases.map(\.rawValue))), or `{name: \"exact device name\"}`",
                      standard: "every device"),
            ConfigKey("pressure", ConfigKey.words(PressureRequirement.allCases.map(\.rawValue)),
                      standard: ConfigKey.words([PressureRequirement.any.rawValue])),
            ConfigKey("applications", "`{only: [names]}` or `{except: [names]}`", standard: "everywhere"),
            ConfigKey("owns-contact", "true / false",
                      standard: "true for \(owning.joined(separator: ", ")); false for \(watching.joined(separator: ", "))"),
            ConfigKey("feedback", "list of \(ConfigKey.words(FeedbackStyle.allCases.map(\.rawValue) + ["none"]))",
                      standard: "`[pulse]` for deep-press, `[ring]` for a knob with `volume` actions, none otherwise"),
            ConfigKey("action", "action or list", standard: "none"),
            ConfigKey("on-end", "action or list", standard: "none"),
        ])
    }()
}

extension RecognizerKind {
    /// The keys that map this gesture's value to repeated actions; nil for a gesture without.
    public var stepKeys: StepKeys? {
        switch self {
        case .force: return ForceRecognizer.Configuration.Keys.steps
        case .knob: return KnobSettings.Keys.steps
        case .deepPress, .squeeze, .pressureThresholds, .longPress: return nil
        }
    }

    /// This gesture's own keys, declared beside its recognizer's configuration.
    public var schema: GestureSchema {
        switch self {
        case .force: return ForceRecognizer.Configuration.schema
        case .deepPress: return DeepPressRecognizer.Configuration.schema
        case .squeeze: return SqueezeRecognizer.Configuration.schema
        case .pressureThresholds: return PressureThresholdsRecognizer.Configuration.schema
        case .knob: return KnobSettings.schema
        case .longPress: return LongPressRecognizer.Configuration.schema
        }
    }
}
