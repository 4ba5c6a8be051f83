/// The valuator block of an inputtest event: which axes are set, and their values in device units.
///
/// The driver numbers the axes of its absolute devices the same way for pen and touch:
/// 0 X, 1 Y, 2 and 3 scrolling, 4 pressure.
public struct InputTestValuators: Sendable, Equatable {
    /// The protocol's fixed number of valuator slots.
    public static let capacity = 64
    public static let xAxis = 0
    public static let yAxis = 1
    public static let pressureAxis = 4

    public private(set) var values: [Int: Double]

    public init(_ values: [Int: Double] = [:]) {
        self.values = values.filter { Self.isValidAxis($0.key) }
    }

    public init(x: Double?, y: Double?, pressure: Double?) {
        var values: [Int: Double] = [:]
        values[Self.xAxis] = x
        values[Self.yAxis] = y
        values[Self.pressureAxis] = pressure
        self.init(values)
    }

    public subscript(axis: Int) -> Double? {
        get { values[axis] }
        set {
            guard Self.isValidAxis(axis) else { return }
            values[axis] = newValue
        }
    }

    private static func isValidAxis(_ axis: Int) -> Bool {
        (0..<capacity).contains(axis)
    }

    /// Appends `struct { uint32_t has_unaccelerated; uint8_t mask[8]; double valuators[64];
    /// double unaccelerated[64]; }`: 4 + 8 bytes, 4 bytes of padding, 512 + 512 bytes. Holding
    /// doubles, the struct itself starts on an 8-byte boundary of the enclosing message.
    func write(to writer: inout NativeByteWriter) {
        writer.align(to: MemoryLayout<Double>.alignment)
        writer.append(UInt32(0))
        var mask = [UInt8](repeating: 0, count: Self.capacity / 8)
        for axis in values.keys {
            mask[axis / 8] |= UInt8(1) << UInt8(axis % 8)
        }
        writer.append(contentsOf: mask)
        for axis in 0..<Self.capacity {
            writer.append(values[axis] ?? 0)
        }
        for _ in 0..<Self.capacity {
            writer.append(0.0)
        }
    }
}
