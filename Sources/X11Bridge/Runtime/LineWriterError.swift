/// A file the bridge cannot write its output to.
public struct LineWriterError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write \(path): \(reason)" }
}
