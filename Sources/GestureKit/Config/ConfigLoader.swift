import Foundation

/// Reads configs: a file, text, or the built-in default.
public enum ConfigLoader {
    /// Parses config text; `file` names it in error messages.
    public static func parse(_ text: String, file: String) throws(ConfigError) -> BindingSet {
        var parser = ConfigParser()
        let result = parser.parseDocument(text)
        guard let result, parser.issues.isEmpty else {
            throw ConfigError(file: file, issues: parser.issues.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return result
    }

    /// Reads and parses the file at `path`; refuses a file others could change (`ConfigTrust`).
    public static func load(path: String) throws(ConfigError) -> BindingSet {
        if let distrust = ConfigTrust.problem(forConfigAt: path) {
            throw ConfigError(file: path, issues: [], unreadable: "refusing the config: \(distrust)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigError(file: path, issues: [], unreadable: "cannot read the config file: \(Self.reason(error))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(file: path, issues: [], unreadable: "the config file is not UTF-8 text")
        }
        return try parse(text, file: path)
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

    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        if nsError.domain == NSCocoaErrorDomain && nsError.code == NSFileReadNoSuchFileError { return "no such file" }
        return nsError.localizedDescription
    }
}
