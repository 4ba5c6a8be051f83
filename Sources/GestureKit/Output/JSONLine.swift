/// Builds one JSON object as a single line, keys in the order they are added, so the replay
/// output reads in the same order as the trace-format contract shows it.
public struct JSONLine: Sendable {
    private var text = "{"
    private var empty = true

    public init() {}

    public mutating func add(_ key: String, _ value: String) {
        addRaw(key, JSONLine.quoted(value))
    }

    public mutating func add(_ key: String, _ value: Int) {
        addRaw(key, String(value))
    }

    public mutating func add(_ key: String, _ value: Double) {
        addRaw(key, JSONLine.number(value))
    }

    public mutating func add(_ key: String, _ values: [String]) {
        addRaw(key, "[" + values.map(JSONLine.quoted).joined(separator: ",") + "]")
    }

    public mutating func addRaw(_ key: String, _ json: String) {
        if !empty { text += "," }
        empty = false
        text += JSONLine.quoted(key) + ":" + json
    }

    public var string: String { text + "}" }

    /// Numbers rounded to microseconds (or millionths): enough for times, pixels and force,
    /// and free of binary noise such as 0.30000000000000004.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        return (rounded == 0 ? 0 : rounded).formatted
    }

    public static func quoted(_ string: String) -> String {
        // Most keys and values need no escape: copied whole.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + string + "\""
        }
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension JSONLine {
    /// A device's pressure range as `{"min":…,"max":…}`, or `null` for a device without one:
    /// the shape the trace header, `devices --json` and `analyze --json` share.
    public mutating func add(_ key: String, _ range: PressureRange?) {
        guard let range else {
            addRaw(key, "null")
            return
        }
        var object = JSONLine()
        object.add("min", range.min)
        object.add("max", range.max)
        addRaw(key, object.string)
    }
}
