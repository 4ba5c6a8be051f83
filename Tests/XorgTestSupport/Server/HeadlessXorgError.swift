/// Why a headless Xorg could not be started; the message says what to do about it.
public enum HeadlessXorgError: Error, CustomStringConvertible, Sendable {
    case unavailable(reason: String)
    case noFreeDisplay(searched: ClosedRange<Int>)
    case cannotPrepare(reason: String)
    case exitedEarly(display: String, status: Int32, logTail: String)
    case notAcceptingConnections(display: String, waited: Double, logTail: String)
    case deviceConnectionFailed(display: String, device: String, reason: String, logTail: String)

    public var description: String {
        switch self {
        case .unavailable(let reason):
            "a headless Xorg cannot run here: \(reason)"
        case .noFreeDisplay(let range):
            "no free X display number in :\(range.lowerBound)...:\(range.upperBound)"
        case .cannotPrepare(let reason):
            "cannot prepare the headless Xorg: \(reason)"
        case .exitedEarly(let display, let status, let logTail):
            "Xorg \(display) exited with status \(status) while starting; end of its log:\n\(logTail)"
        case .notAcceptingConnections(let display, let waited, let logTail):
            "Xorg \(display) accepted no connection within \(waited) s; end of its log:\n\(logTail)"
        case .deviceConnectionFailed(let display, let device, let reason, let logTail):
            "cannot drive \(device) on Xorg \(display): \(reason); end of its log:\n\(logTail)"
        }
    }
}
