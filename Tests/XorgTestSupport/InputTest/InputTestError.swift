/// Why talking to an inputtest device failed; each message names the socket.
public enum InputTestError: Error, CustomStringConvertible, Sendable {
    case cannotConnect(socketPath: String, reason: String)
    case socketPathTooLong(socketPath: String)
    case sendFailed(socketPath: String, reason: String)
    case receiveFailed(socketPath: String, reason: String)
    case unexpectedResponse(socketPath: String, expected: String, bytes: [UInt8])
    case closed(socketPath: String)

    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason):
            "cannot connect to the inputtest device at \(path): \(reason)"
        case .socketPathTooLong(let path):
            "the inputtest socket path is longer than a unix socket address allows: \(path)"
        case .sendFailed(let path, let reason):
            "sending to the inputtest device at \(path) failed: \(reason)"
        case .receiveFailed(let path, let reason):
            "no answer from the inputtest device at \(path): \(reason)"
        case .unexpectedResponse(let path, let expected, let bytes):
            "the inputtest device at \(path) answered \(bytes) where \(expected) was expected"
        case .closed(let path):
            "the connection to the inputtest device at \(path) is closed"
        }
    }
}
