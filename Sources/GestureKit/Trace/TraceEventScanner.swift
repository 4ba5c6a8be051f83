import Glibc

/// The values of one event line of the usual shape, read straight from its bytes.
struct ScannedEvent {
    var time: Double
    var device: Double
    var contact: Double
    var phase: ContactPhase
    var x: Double
    var y: Double
    /// Nil when the line has no `pressure` or `"pressure":null`.
    var pressure: Double?
}

/// Reads an event line of the shape the trace writer writes: one flat JSON object of ASCII
/// keys and values, with numbers, escape-free strings and null. It gives nil for anything
/// else (escapes, text that is not ASCII, nested values, true or false, a number with more
/// than 15 digits or a large exponent, -0, zero with an exponent, a repeated or missing key,
/// a `trace` key, a value of the wrong type), and the full parser reads that line instead.
enum TraceEventScanner {
    private enum Key {
        case time, device, contact, phase, x, y, pressure, other
    }

    private static let required: UInt8 = 0b11_1111

    static func scan(_ line: UnsafeBufferPointer<UInt8>) -> ScannedEvent? {
        var index = 0
        var end = line.count
        // The full parser trims ASCII white space (and more) around the line.
        while index < end, isTrimmed(line[index]) { index += 1 }
        while end > index, isTrimmed(line[end - 1]) { end -= 1 }
        guard index < end, line[index] == UInt8(ascii: "{"), line[end - 1] == UInt8(ascii: "}") else { return nil }
        index += 1
        var seen: UInt8 = 0
        var event = ScannedEvent(time: 0, device: 0, contact: 0, phase: .move, x: 0, y: 0, pressure: nil)
        var hasPressure = false
        while true {
            skipSpace(line, &index, end)
            guard index < end, line[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            let keyStart = index
            guard skipString(line, &index, end) else { return nil }
            let key = self.key(line, from: keyStart, to: index - 1)
            guard let key else { return nil }
            skipSpace(line, &index, end)
            guard index < end, line[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipSpace(line, &index, end)
            guard index < end else { return nil }
            let bit: UInt8
            switch key {
            case .time: bit = 1
            case .device: bit = 2
            case .contact: bit = 4
            case .phase: bit = 8
            case .x: bit = 16
            case .y: bit = 32
            case .pressure: bit = 64
            case .other: bit = 0
            }
            if bit != 0 {
                guard seen & bit == 0 else { return nil }
                seen |= bit
            }
            let first = line[index]
            if first == UInt8(ascii: "\"") {
                index += 1
                let valueStart = index
                guard skipString(line, &index, end) else { return nil }
                switch key {
                case .phase:
                    guard let phase = phase(line, from: valueStart, to: index - 1) else { return nil }
                    event.phase = phase
                case .other:
                    break
                default:
                    return nil
                }
            } else if first == UInt8(ascii: "n") {
                guard key == .other || key == .pressure, end - index >= 4, line[index + 1] == UInt8(ascii: "u"),
                      line[index + 2] == UInt8(ascii: "l"), line[index + 3] == UInt8(ascii: "l") else { return nil }
                index += 4
            } else {
                guard key != .phase, let value = number(line, &index, end) else { return nil }
                switch key {
                case .time: event.time = value
                case .device: event.device = value
                case .contact: event.contact = value
                case .x: event.x = value
                case .y: event.y = value
                case .pressure:
                    event.pressure = value
                    hasPressure = true
                case .phase, .other: break
                }
            }
            skipSpace(line, &index, end)
            guard index < end else { return nil }
            if line[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            // The closing brace is the last byte, checked above.
            guard index == end - 1 else { return nil }
            break
        }
        guard seen & required == required else { return nil }
        if !hasPressure { event.pressure = nil }
        return event
    }

    /// Bytes `trimmingCharacters(in: .whitespacesAndNewlines)` removes that are ASCII.
    private static func isTrimmed(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// JSON's white space inside the object.
    private static func skipSpace(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int) {
        while index < end {
            let byte = line[index]
            guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
            index += 1
        }
    }

    /// Moves past a string's closing quote; false for an escape, a control character, text
    /// that is not ASCII or no closing quote.
    private static func skipString(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int) -> Bool {
        while index < end {
            let byte = line[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return true }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return false }
        }
        return false
    }

    /// The key between two offsets; nil for `trace`, which the full parser refuses on an event line.
    private static func key(_ line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Key? {
        switch end - start {
        case 1:
            switch line[start] {
            case UInt8(ascii: "t"): return .time
            case UInt8(ascii: "x"): return .x
            case UInt8(ascii: "y"): return .y
            default: return .other
            }
        case 5:
            if matches(line, start, "phase") { return .phase }
            if matches(line, start, "trace") { return nil }
            return .other
        case 6: return matches(line, start, "device") ? .device : .other
        case 7: return matches(line, start, "contact") ? .contact : .other
        case 8: return matches(line, start, "pressure") ? .pressure : .other
        default: return .other
        }
    }

    private static func phase(_ line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> ContactPhase? {
        switch end - start {
        case 3: return matches(line, start, "end") ? .end : nil
        case 4: return matches(line, start, "move") ? .move : nil
        case 5:
            if matches(line, start, "begin") { return .begin }
            if matches(line, start, "hover") { return .hover }
            return nil
        case 6: return matches(line, start, "cancel") ? .cancel : nil
        default: return nil
        }
    }

    private static func matches(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard start + count <= line.count, let base = line.baseAddress else { return false }
        return memcmp(base + start, word.utf8Start, count) == 0
    }

    /// A JSON number of at most 15 significant digits whose decimal exponent lies within
    /// ±22: its digits and the power of ten are exact doubles, so one multiplication or
    /// division rounds it correctly, to the double the full parser gives.
    private static func number(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ end: Int) -> Double? {
        var negative = false
        if line[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        guard index < end, isDigit(line[index]) else { return nil }
        if line[index] == UInt8(ascii: "0") {
            index += 1
            // JSON allows no leading zeros.
            if index < end, isDigit(line[index]) { return nil }
        } else {
            while index < end, isDigit(line[index]) {
                mantissa = mantissa * 10 + UInt64(line[index] - UInt8(ascii: "0"))
                digits += 1
                guard digits <= 15 else { return nil }
                index += 1
            }
        }
        if index < end, line[index] == UInt8(ascii: ".") {
            index += 1
            guard index < end, isDigit(line[index]) else { return nil }
            while index < end, isDigit(line[index]) {
                let digit = UInt64(line[index] - UInt8(ascii: "0"))
                if mantissa != 0 || digit != 0 {
                    mantissa = mantissa * 10 + digit
                    digits += 1
                    guard digits <= 15 else { return nil }
                }
                scale -= 1
                guard scale >= -22 else { return nil }
                index += 1
            }
        }
        let hasExponent = index < end && line[index] | 0x20 == UInt8(ascii: "e")
        if hasExponent {
            index += 1
            var exponentNegative = false
            if index < end, line[index] == UInt8(ascii: "+") || line[index] == UInt8(ascii: "-") {
                exponentNegative = line[index] == UInt8(ascii: "-")
                index += 1
            }
            guard index < end, isDigit(line[index]) else { return nil }
            var exponent = 0
            while index < end, isDigit(line[index]) {
                exponent = exponent * 10 + Int(line[index] - UInt8(ascii: "0"))
                guard exponent <= 1000 else { return nil }
                index += 1
            }
            scale += exponentNegative ? -exponent : exponent
        }
        // JSON readers differ on -0 (0 or -0.0), and the toolchain's JSONDecoder refuses some
        // zeros with an exponent (0e9, 0.00E6) while reading others (0e0, 0e22): the full
        // parser decides both.
        if mantissa == 0 { return negative || hasExponent ? nil : 0 }
        guard (-22...22).contains(scale) else { return nil }
        let magnitude = scale >= 0 ? Double(mantissa) * powerOfTen(scale) : Double(mantissa) / powerOfTen(-scale)
        return negative ? -magnitude : magnitude
    }

    /// 10 to the power 0...22, each exact in a double.
    private static func powerOfTen(_ power: Int) -> Double {
        switch power {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        case 15: 1e15
        case 16: 1e16
        case 17: 1e17
        case 18: 1e18
        case 19: 1e19
        case 20: 1e20
        case 21: 1e21
        default: 1e22
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
