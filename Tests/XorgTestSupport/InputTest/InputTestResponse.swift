/// What the driver writes back: `ServerVersion` (12 bytes) after the handshake and
/// `SyncFinished` (8 bytes) for each `WaitForSync`.
enum InputTestResponse: Equatable {
    case serverVersion(major: UInt16, minor: UInt16)
    case syncFinished

    static let serverVersionSize = 12
    static let syncFinishedSize = 8

    /// Parses the driver's native-endian `{uint32_t length; int32_t type; ...}`.
    init?(bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        let type = Self.read(Int32.self, from: bytes, at: 4)
        switch type {
        case 0 where bytes.count >= Self.serverVersionSize:
            self = .serverVersion(
                major: Self.read(UInt16.self, from: bytes, at: 8),
                minor: Self.read(UInt16.self, from: bytes, at: 10))
        case 1:
            self = .syncFinished
        default:
            return nil
        }
    }

    private static func read<Value: FixedWidthInteger>(_: Value.Type, from bytes: [UInt8], at offset: Int) -> Value {
        var value = Value.zero
        withUnsafeMutableBytes(of: &value) { raw in
            for index in 0..<raw.count {
                raw[index] = bytes[offset + index]
            }
        }
        return value
    }
}
