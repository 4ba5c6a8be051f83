/// The type of a YAML scalar, by YAML 1.1's rules for plain text (`yes` is a boolean, `0x1f` a
/// number, `~` null) or by the tag written on it.
enum YAMLTag: Sendable, Hashable {
    case str, bool, int, float, null, merge, timestamp, value
    /// A tag written on the node that is none of the above (`!local`, `!!binary`).
    case other(String)

    private static let prefix = "tag:yaml.org,2002:"

    init(explicit tag: String) {
        // `!` alone asks for the default type: a string.
        guard tag != "!" else { self = .str; return }
        switch tag.hasPrefix(Self.prefix) ? String(tag.dropFirst(Self.prefix.count)) : "" {
        case "str": self = .str
        case "bool": self = .bool
        case "int": self = .int
        case "float": self = .float
        case "null": self = .null
        case "merge": self = .merge
        case "timestamp": self = .timestamp
        case "value": self = .value
        default: self = .other(tag)
        }
    }

    /// What plain text reads as, the rules tried in YAML 1.1's order.
    static func resolving(_ text: String) -> YAMLTag {
        let bytes = Array(text.utf8)
        if booleans.contains(text) { return .bool }
        if PlainPattern.isInteger(bytes) { return .int }
        if PlainPattern.isFloat(bytes) { return .float }
        if text == "<<" { return .merge }
        if nulls.contains(text) { return .null }
        if PlainPattern.isTimestamp(bytes) { return .timestamp }
        if text == "=" { return .value }
        return .str
    }

    private static let booleans: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE",
        "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF",
    ]
    private static let nulls: Set<String> = ["~", "null", "Null", "NULL", ""]
}

/// YAML 1.1's patterns for plain numbers and dates, matched over the text's bytes.
private struct PlainPattern {
    private let bytes: [UInt8]
    private var at = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// `0b1010`, `017`, `0o17`, `42`, `0x1F`, `1:30`, each with an optional sign and `_`s.
    static func isInteger(_ bytes: [UInt8]) -> Bool {
        let forms: [(inout PlainPattern) -> Bool] = [
            { $0.sign(); return $0.word("0b") && $0.many(of: "01_") },
            { p in
                p.sign()
                guard p.word("0") else { return false }
                _ = p.word("o")
                return p.many(of: "01234567_")
            },
            { $0.sign(); return $0.word("0") || ($0.one(of: "123456789") && $0.any(of: digits + "_")) },
            { $0.sign(); return $0.word("0x") && $0.many(of: digits + "abcdefABCDEF_") },
            { $0.sign(); return $0.one(of: "123456789") && $0.any(of: digits + "_") && $0.baseSixtyParts() },
        ]
        return forms.contains { form in whole(bytes, form) }
    }

    /// `1.5`, `1e3`, `.5`, `1:30.5`, `.inf`, `-.Inf`, `.nan`.
    static func isFloat(_ bytes: [UInt8]) -> Bool {
        let forms: [(inout PlainPattern) -> Bool] = [
            { p in
                p.sign()
                guard p.one(of: digits), p.any(of: digits + "_") else { return false }
                if p.word(".") { _ = p.any(of: digits + "_") }
                return p.exponent(signRequired: false)
            },
            { p in p.word(".") && p.many(of: digits + "_") && p.exponent(signRequired: true) },
            { p in
                p.sign()
                return p.one(of: digits) && p.any(of: digits + "_") && p.baseSixtyParts()
                    && p.word(".") && p.any(of: digits + "_")
            },
            { p in p.sign(); return p.word(".inf") || p.word(".Inf") || p.word(".INF") },
            { p in p.word(".nan") || p.word(".NaN") || p.word(".NAN") },
        ]
        return forms.contains { form in whole(bytes, form) }
    }

    /// `2001-12-14`, or `2001-12-14t21:59:43.10-05:00` with a time and an optional zone.
    static func isTimestamp(_ bytes: [UInt8]) -> Bool {
        let date: (inout PlainPattern) -> Bool = { p in
            p.exactly(4, of: digits) && p.word("-") && p.exactly(2, of: digits) && p.word("-") && p.exactly(2, of: digits)
        }
        let dateTime: (inout PlainPattern) -> Bool = { p in
            guard p.exactly(4, of: digits), p.word("-"), p.oneOrTwoDigits(), p.word("-"), p.oneOrTwoDigits() else { return false }
            guard p.one(of: "Tt") || p.many(of: " \t") else { return false }
            guard p.oneOrTwoDigits(), p.word(":"), p.exactly(2, of: digits), p.word(":"), p.exactly(2, of: digits) else { return false }
            if p.word(".") { _ = p.any(of: digits) }
            let beforeZone = p.at
            _ = p.any(of: " \t")
            if p.word("Z") { return true }
            if p.one(of: "+-") {
                guard p.oneOrTwoDigits() else { return false }
                let beforeMinutes = p.at
                if !(p.word(":") && p.exactly(2, of: digits)) { p.at = beforeMinutes }
                return true
            }
            p.at = beforeZone
            return true
        }
        return whole(bytes, date) || whole(bytes, dateTime)
    }

    private static let digits = "0123456789"

    /// Whether `form` matches all of `bytes`.
    private static func whole(_ bytes: [UInt8], _ form: (inout PlainPattern) -> Bool) -> Bool {
        var pattern = PlainPattern(bytes)
        return form(&pattern) && pattern.at == bytes.count
    }

    private var next: UInt8? { at < bytes.count ? bytes[at] : nil }

    private mutating func sign() { _ = one(of: "+-") }

    private mutating func word(_ text: String) -> Bool {
        let word = Array(text.utf8)
        guard bytes.count - at >= word.count, Array(bytes[at..<at + word.count]) == word else { return false }
        at += word.count
        return true
    }

    private mutating func one(of set: String) -> Bool {
        guard let next, set.utf8.contains(next) else { return false }
        at += 1
        return true
    }

    /// Zero or more; always true.
    private mutating func any(of set: String) -> Bool {
        while one(of: set) {}
        return true
    }

    /// One or more.
    private mutating func many(of set: String) -> Bool { one(of: set) && any(of: set) }

    private mutating func exactly(_ count: Int, of set: String) -> Bool {
        for _ in 0..<count {
            guard one(of: set) else { return false }
        }
        return true
    }

    private mutating func oneOrTwoDigits() -> Bool {
        guard one(of: Self.digits) else { return false }
        _ = one(of: Self.digits)
        return true
    }

    /// One or more `:ss` parts, each 0 to 59 written with one or two digits.
    private mutating func baseSixtyParts() -> Bool {
        var parts = 0
        while next == UInt8(ascii: ":") {
            let start = at
            at += 1
            let tens = at
            if one(of: "012345"), one(of: Self.digits) {
                parts += 1
                continue
            }
            at = tens
            guard one(of: Self.digits) else { at = start; break }
            parts += 1
        }
        return parts > 0
    }

    /// `e5`, `E-3`: optional, though once begun it must be whole.
    private mutating func exponent(signRequired: Bool) -> Bool {
        let start = at
        guard one(of: "eE") else { return true }
        let signed = one(of: "+-")
        guard (signed || !signRequired), many(of: Self.digits) else { at = start; return true }
        return true
    }
}
