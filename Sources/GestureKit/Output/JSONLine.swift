/// How a line of JSON writes a number and a string: `JSONLineEncoder` writes every `--json` and
/// trace line with these, and the few other texts written the same way (the learned state's
/// numbers, `print-config`'s quoted strings) share them.
public enum JSONLine {
    /// Numbers rounded to microseconds (or millionths): enough for times, pixels and force,
    /// and free of binary noise such as 0.30000000000000004.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        // Beyond about 1.8e302 the scaling overflows (and such a number has no millionths).
        guard rounded.isFinite else { return value.formatted }
        return (rounded == 0 ? 0 : rounded).formatted
    }

    public static func quoted(_ string: String) -> String {
        // Most keys and values need no escape: copied whole. (0x7F, 0xC2 and 0xE2 start DEL, the
        // C1 controls and the line separators, escaped below.)
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2
            || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
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
            // Controls, and what YAML reads as line breaks (NEL, the line and paragraph
            // separators): JSON allows them raw, but print-config's output must read back as
            // YAML, which refuses the controls and breaks a line at the others.
            case let c where c.value < 0x20 || (0x7F...0x9F).contains(c.value) || c.value == 0x2028 || c.value == 0x2029:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
