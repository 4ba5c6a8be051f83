/// What the bridge's button grab is doing with one master pointer's stroke.
///
/// No entry means idle: nothing is held. A decision can act on the master before its grabbed
/// press has been read: the server takes the bridge's requests in order, and each press it
/// froze waits for exactly one of them (`PointerOwnership`).
enum PointerHold: Sendable, Hashable {
    /// The grabbed press is here and the master frozen; the engine has not decided yet.
    case frozen(source: Int, since: Double)
    /// The bridge keeps the stroke until the physical release; `pressSeen` says whether the
    /// grabbed press has been read yet. Only while the stroke is on the master (its press not
    /// read yet, or the device could not be detached): off it, the master is free.
    case claimed(source: Int, pressSeen: Bool)

    var source: Int {
        switch self {
        case .frozen(let source, _), .claimed(let source, _):
            return source
        }
    }
}
