/// Where a node starts in the text, counted from 1 as editors count (columns in characters).
struct YAMLMark: Sendable, Hashable {
    var line: Int
    var column: Int
}

/// One node of a YAML document as libyaml reads it, aliases already replaced by the node they
/// name.
enum YAMLNode: Sendable {
    case scalar(Scalar)
    case mapping(Mapping)
    case sequence(Sequence)

    struct Scalar: Sendable {
        /// How the scalar was written: only a plain one is read as a number, a boolean or null.
        enum Style: Sendable { case plain, quoted, block }

        var string: String
        var style: Style
        /// The tag written on it (`!!int 3`: `tag:yaml.org,2002:int`), nil when there is none.
        var explicitTag: String?
        var mark: YAMLMark

        /// The YAML 1.1 type the scalar has: the tag written on it, else what its text reads as
        /// (plain text only: a quoted or block scalar is a string).
        var resolvedTag: YAMLTag {
            if let explicitTag { return YAMLTag(explicit: explicitTag) }
            return style == .plain ? YAMLTag.resolving(string) : .str
        }
    }

    struct Mapping: Sendable, RandomAccessCollection {
        var pairs: [(key: YAMLNode, value: YAMLNode)]
        var mark: YAMLMark

        var startIndex: Int { pairs.startIndex }
        var endIndex: Int { pairs.endIndex }
        subscript(position: Int) -> (key: YAMLNode, value: YAMLNode) { pairs[position] }

        /// The value of the key written as `key` (any quoting), nil when there is none.
        subscript(key: String) -> YAMLNode? {
            let tag = YAMLTag.resolving(key)
            return pairs.first { pair in
                guard case .scalar(let scalar) = pair.key else { return false }
                return scalar.string == key && scalar.resolvedTag == tag
            }?.value
        }
    }

    struct Sequence: Sendable, RandomAccessCollection {
        var items: [YAMLNode]
        var mark: YAMLMark

        var startIndex: Int { items.startIndex }
        var endIndex: Int { items.endIndex }
        subscript(position: Int) -> YAMLNode { items[position] }
    }

    var mark: YAMLMark {
        switch self {
        case .scalar(let scalar): scalar.mark
        case .mapping(let mapping): mapping.mark
        case .sequence(let sequence): sequence.mark
        }
    }

    var scalar: Scalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// The value of `key` in a mapping; nil for a scalar or a sequence.
    subscript(key: String) -> YAMLNode? {
        if case .mapping(let mapping) = self { return mapping[key] }
        return nil
    }
}

// MARK: Reading scalars

extension YAMLNode {
    /// A plain scalar read as a whole number: decimal, `0x` hex, `0b` binary, `0o` or leading-0
    /// octal, `_` between digits, `1:30` base 60.
    var int: Int? {
        guard let scalar, scalar.style == .plain else { return nil }
        let text = scalar.string.filter { $0 != "_" }
        if text == "0" { return 0 }
        let negative = text.hasPrefix("-")
        let hasSign = negative || text.hasPrefix("+")
        let digits = text.dropFirst(hasSign ? 1 : 0)
        let sign = negative ? "-" : ""
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where digits.hasPrefix(prefix) {
            return Int(sign + digits.dropFirst(prefix.count), radix: radix)
        }
        if digits.contains(":") {
            return Self.baseSixty(text, digit: { Int($0, radix: 10) }, negate: { $0 == .min ? nil : -$0 }) { value, digit in
                let (times, overflow) = value.multipliedReportingOverflow(by: 60)
                let (sum, overflowAgain) = times.addingReportingOverflow(digit)
                return overflow || overflowAgain ? nil : sum
            }
        }
        return Int(text)
    }

    /// A plain scalar read as a number: anything Swift reads as a `Double`, `.inf`, `-.inf`,
    /// `.nan`, `_` between digits, `1:30.5` base 60.
    var float: Double? {
        guard let scalar, scalar.style == .plain else { return nil }
        switch scalar.string.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            let text = scalar.string.filter { $0 != "_" }
            if text.contains(":") { return Self.baseSixty(text, digit: { Double($0) }, negate: { -$0 }) { $0 * 60 + $1 } }
            return Double(text)
        }
    }

    /// A boolean as YAML 1.1 writes it (true/false, yes/no, on/off) and not quoted.
    var bool: Bool? {
        guard let scalar, scalar.resolvedTag != .str else { return nil }
        switch scalar.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// `-1:30` is -90: each part a digit in base 60, the sign in front of them all; nil when a
    /// part is no number or the value does not fit.
    private static func baseSixty<Number: Numeric>(_ text: String, digit: (Substring) -> Number?,
                                                   negate: (Number) -> Number?, shift: (Number, Number) -> Number?) -> Number? {
        let negative = text.hasPrefix("-")
        let unsigned = text.dropFirst(negative || text.hasPrefix("+") ? 1 : 0)
        var value: Number = 0
        for part in unsigned.split(separator: ":", omittingEmptySubsequences: false) {
            guard let digit = digit(part), let shifted = shift(value, digit) else { return nil }
            value = shifted
        }
        return negative ? negate(value) : value
    }
}
