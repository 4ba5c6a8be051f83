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

    /// Copies from Xlib's buffers, which live only as long as the event cookie.
    static func decode(mask: UnsafePointer<UInt8>?, maskLength: Int32, values: UnsafePointer<Double>?) -> [Int: Double] {
        guard let mask, let values, maskLength > 0 else { return [:] }
        let maskBytes = Array(UnsafeBufferPointer(start: mask, count: Int(maskLength)))
        let count = maskBytes.reduce(0) { $0 + $1.nonzeroBitCount }
        return decode(mask: maskBytes, values: Array(UnsafeBufferPointer(start: values, count: count)))
    }
}
