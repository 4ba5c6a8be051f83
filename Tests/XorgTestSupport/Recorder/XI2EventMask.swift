/// The bit mask of XI2 event types that XISelectEvents takes (C's XISetMask, which Swift does
/// not import because it is a macro).
struct XI2EventMask: Equatable {
    var bytes: [UInt8]

    init(_ eventTypes: [Int]) {
        let highest = eventTypes.max() ?? 0
        bytes = [UInt8](repeating: 0, count: highest / 8 + 1)
        for type in eventTypes {
            bytes[type / 8] |= UInt8(1) << UInt8(type % 8)
        }
    }
}
