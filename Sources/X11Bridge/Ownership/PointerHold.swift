/// What the bridge's button grab is doing with one master pointer's stroke.
///
/// No entry means idle: nothing is held. A raw press always arrives after the server has
/// activated the passive grab and frozen the master, so a decision can act on the master even
/// before the grabbed press itself has been read from the connection.
enum PointerHold: Sendable, Hashable {
    /// The grabbed press is here and the master frozen; the engine has not decided yet.
    case frozen(source: Int, since: Double)
    /// The stroke went back to the application (replayed) before the grabbed press was
    /// read: that press, still queued, is expected and needs nothing.
    case replayed(source: Int)
    /// The bridge keeps the stroke until the physical release; `pressSeen` says whether the
    /// grabbed press has been read yet.
    case claimed(source: Int, pressSeen: Bool)

    var source: Int {
        switch self {
        case .frozen(let source, _), .replayed(let source), .claimed(let source, _):
            return source
        }
    }
}
