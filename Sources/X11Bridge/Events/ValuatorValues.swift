/// Reads XI2's compact valuator lists: the values array holds one value per set mask bit,
/// in bit order, not one per valuator number.
public enum ValuatorValues {
    public static func decode(mask: [UInt8], values: [Double]) -> [Int: Double] {
        var result: [Int: Double] = [:]
        var next = 0
        for (byteIndex, byte) in mask.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (UInt8(1) << UInt8(bit)) != 0 {
                guard next < values.count else { return result }
                result[byteIndex * 8 + bit] = values[next]
                next += 1
            }
        }
        return result
    }

    /// Copies from Xlib's buffers, which live only as long as the event cookie, in valuator
    /// order. One allocation and no hashing: this runs for every event of every device.
    static func decode(mask: UnsafePointer<UInt8>?, maskLength: Int32, values: UnsafePointer<Double>?) -> [AxisValue] {
        guard let mask, let values, maskLength > 0 else { return [] }
        let maskBytes = UnsafeBufferPointer(start: mask, count: Int(maskLength))
        var count = 0
        for byte in maskBytes { count += byte.nonzeroBitCount }
        var result: [AxisValue] = []
        result.reserveCapacity(count)
        for (byteIndex, byte) in maskBytes.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (UInt8(1) << UInt8(bit)) != 0 {
                result.append(AxisValue(number: byteIndex * 8 + bit, value: values[result.count]))
            }
        }
        return result
    }
}

/// One valuator's value in an event, in device units.
public struct AxisValue: Sendable, Hashable {
    public var number: Int
    public var value: Double

    public init(number: Int, value: Double) {
        self.number = number
        self.value = value
    }
}
