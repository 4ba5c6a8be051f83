/// One thing wrong with a config, where it is.
public struct ConfigIssue: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(line):\(column): \(message)" }
}

/// Everything wrong with a config file, each issue as `file:line:column: error: message`.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var issues: [ConfigIssue]
    /// Set when the file could not be read at all.
    public var unreadable: String?

    public var description: String {
        if let unreadable { return "\(file): error: \(unreadable)" }
        return issues.map { "\(file):\($0.line):\($0.column): error: \($0.message)" }.joined(separator: "\n")
    }
}
