/// Why the signal descriptor could not be set up.
public struct SignalSetupError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { "cannot watch for signals: \(message)" }
}
