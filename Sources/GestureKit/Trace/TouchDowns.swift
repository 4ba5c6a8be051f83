/// When each contact of a trace went down, to tell how long the engine held it before its
/// decision. Every contact the engine takes (one whose device the header names) gets exactly
/// one decision, in the order of its key's touch-downs, so decisions are matched to
/// touch-downs in order, key by key.
public struct TouchDowns: Sendable {
    private var pending: [ContactKey: [Double]] = [:]
    private var taken: [ContactKey: Int] = [:]

    public init(_ trace: Trace) {
        let devices = Set(trace.header.devices.map(\.id))
        for event in trace.events where event.phase == .begin && devices.contains(event.device) {
            pending[ContactKey(device: event.device, contact: event.contact), default: []].append(event.time)
        }
    }

    /// The touch-down of `key`'s next undecided contact; nil when none is left.
    public mutating func next(for key: ContactKey) -> Double? {
        let index = taken[key, default: 0]
        guard let times = pending[key], index < times.count else { return nil }
        taken[key] = index + 1
        return times[index]
    }
}
