/// The server timestamps of the latest touch begins: a touch's emulated button press names no
/// touch, and carries the timestamp of the touch's begin (`InputListener`).
struct TouchBegins: Sendable {
    private struct Begin: Sendable {
        var device: Int
        var touch: Int
        var stamp: UInt
    }

    /// How many begins are kept: more than the touches whose press can still be on its way.
    static let kept = 16
    private var latest: [Begin] = []

    mutating func began(device: Int, touch: Int, stamp: UInt) {
        latest.append(Begin(device: device, touch: touch, stamp: stamp))
        if latest.count > Self.kept { latest.removeFirst(latest.count - Self.kept) }
    }

    /// The touch of `device` that began at `stamp`; nil when none of the kept ones did. Of two
    /// that began in one frame, the first: a touchscreen emulates the pointer with the touch
    /// that is down first.
    func touch(of device: Int, begunAt stamp: UInt) -> Int? {
        latest.first { $0.device == device && $0.stamp == stamp }?.touch
    }
}
