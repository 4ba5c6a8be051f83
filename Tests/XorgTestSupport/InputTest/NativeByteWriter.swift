/// Builds the bytes of a C struct as the inputtest driver reads it: native byte order and
/// natural alignment, so the layout is spelled out field by field instead of hoping that a Swift
/// struct happens to be laid out like the C one.
struct NativeByteWriter {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append<Value: FixedWidthInteger>(_ value: Value) {
        align(to: MemoryLayout<Value>.alignment)
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ value: Double) {
        align(to: MemoryLayout<Double>.alignment)
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    mutating func append(contentsOf raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    /// Inserts the padding a C compiler puts before a field of this alignment.
    mutating func align(to alignment: Int) {
        let remainder = bytes.count % alignment
        if remainder != 0 {
            bytes.append(contentsOf: repeatElement(0, count: alignment - remainder))
        }
    }

    /// Overwrites an already written 32-bit field (the header's length is known only at the end).
    mutating func overwrite(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value) { raw in
            for (index, byte) in raw.enumerated() {
                bytes[offset + index] = byte
            }
        }
    }
}
