/// Reads configs: a file, text, or the built-in default.
public enum ConfigLoader {
    /// Parses config text; `file` names it in error messages, and `keyNames` (if given) says
    /// which keys `{key: ...}` may name.
    public static func parse(_ text: String, file: String, keyNames: (any KeyNames)? = nil) throws(ConfigError) -> BindingSet {
        var parser = ConfigParser()
        parser.keyNames = keyNames
        let result = parser.parseDocument(text)
        guard let result, parser.issues.isEmpty else {
            throw ConfigError(file: file, issues: parser.issues.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return result
    }

    /// Reads and parses the file at `path`; refuses a file others could change (`ConfigTrust`).
    public static func load(path: String, keyNames: (any KeyNames)? = nil) throws(ConfigError) -> BindingSet {
        if let distrust = ConfigTrust.problem(forConfigAt: path) {
            throw ConfigError(file: path, issues: [], unreadable: "refusing the config: \(distrust)")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(path)
        } catch {
            throw ConfigError(file: path, issues: [], unreadable: "cannot read the config file: \(error.reason)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(file: path, issues: [], unreadable: "the config file is not UTF-8 text")
        }
        return try parse(text, file: path, keyNames: keyNames)
    }

    /// The bindings a user gets without a config file of their own.
    public static var builtInDefault: BindingSet {
        do {
            return try parse(DefaultConfig.text, file: DefaultConfig.name)
        } catch {
            // The default is checked by a test on every build; reaching this is a packaging bug.
            preconditionFailure("the built-in default config does not parse:\n\(error)")
        }
    }
}
