import CX11

/// Reads XI2's compact valuator lists: the values array holds one value per set mask bit,
/// in bit order, not one per valuator number.
public enum ValuatorValues {
    /// The list for a mask and values held in arrays (what `decode(mask:maskWords:values:valueCount:)`
    /// reads in place from an event).
    public static func decode(mask: [UInt32], values: [xcb_input_fp3232_t]) -> [AxisValue] {
        mask.withUnsafeBufferPointer { words in
            values.withUnsafeBufferPointer { values in
                decode(mask: words.baseAddress, maskWords: Int32(words.count), values: values.baseAddress,
                       valueCount: Int32(values.count))
            }
        }
    }

    /// Copies from XCB's event buffer, which lives only as long as the event, in valuator
    /// order: the mask is in 32-bit words (bit n of word w is valuator 32w + n), and the values
    /// are 32.32 fixed point. One allocation and no hashing: this runs for every event of
    /// every device. A value count shorter than the mask says (a malformed event) ends the list.
    static func decode(mask: UnsafePointer<UInt32>?, maskWords: Int32, values: UnsafePointer<xcb_input_fp3232_t>?,
                       valueCount: Int32) -> [AxisValue] {
        guard let mask, let values, maskWords > 0, valueCount > 0 else { return [] }
        let words = UnsafeBufferPointer(start: mask, count: Int(maskWords))
        var count = 0
        for word in words { count += word.nonzeroBitCount }
        count = min(count, Int(valueCount))
        var result: [AxisValue] = []
        result.reserveCapacity(count)
        for (wordIndex, word) in words.enumerated() where word != 0 {
            for bit in 0..<32 where word & (UInt32(1) << UInt32(bit)) != 0 {
                guard result.count < count else { return result }
                let value = values[result.count]
                result.append(AxisValue(number: wordIndex * 32 + bit,
                                        value: Double(value.integral) + Double(value.frac) / 4_294_967_296))
            }
        }
        return result
    }
}

/// One valuator's value in an event, in device units; only the bridge decodes them.
public struct AxisValue: Sendable, Hashable {
    public var number: Int
    public var value: Double
}
