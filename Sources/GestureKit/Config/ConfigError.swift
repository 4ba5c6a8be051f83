/// One thing wrong with a config, where it is.
public struct ConfigIssue: Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(line):\(column): \(message)" }
}

/// Everything wrong with a config file, each issue as `file:line:column: message`.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var issues: [ConfigIssue]

    public init(file: String, issues: [ConfigIssue]) {
        self.file = file
        self.issues = issues
    }

    public var description: String {
        issues.map { "\(file):\($0.line):\($0.column): error: \($0.message)" }.joined(separator: "\n")
    }
}
