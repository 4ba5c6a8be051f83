import Foundation

/// Reads configs: a file, text, or the built-in default.
public enum ConfigLoader {
    /// Parses config text; `file` names it in error messages.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> BindingSet {
        throw ConfigError(file: file, issues: [ConfigIssue(line: 1, column: 1, message: "config parsing is not available yet")])
    }

    /// Reads and parses the file at `path`.
    public static func load(path: String) throws(ConfigError) -> BindingSet {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigError(file: path, issues: [ConfigIssue(line: 0, column: 0, message: "cannot read the file: \(error.localizedDescription)")])
        }
        return try parse(text, file: path)
    }
}
