/// Why a config file cannot be watched for changes.
public struct ConfigWatchError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot watch \(path) for changes: \(reason)" }
}
