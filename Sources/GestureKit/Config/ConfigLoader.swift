import Glibc

/// Reads configs: a file, text, or the built-in default.
public enum ConfigLoader {
    /// Parses config text; `file` names it in error messages, and `keyNames` (if given) says
    /// which keys `{key: ...}` may name.
    public static func parse(_ text: String, file: String, keyNames: (any KeyNames)? = nil) throws(ConfigError) -> BindingSet {
        var parser = ConfigParser()
        parser.keyNames = keyNames
        let result = parser.parseDocument(text)
        guard let result, parser.issues.isEmpty else {
            // A node under an anchor is checked at each alias of it: its issue is told once.
            var told = Set<ConfigIssue>()
            let issues = parser.issues.filter { told.insert($0).inserted }
            throw ConfigError(file: file, issues: issues.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return result
    }

    /// Reads and parses the file at `path`; refuses a file others could change (`ConfigTrust`).
    /// `pipeWait`: for a pipe, how long to wait for its writer's next bytes (`FileContents.read`).
    public static func load(path: String, keyNames: (any KeyNames)? = nil, pipeWait: Double? = nil) throws(ConfigError) -> BindingSet {
        guard !path.isEmpty else {
            throw ConfigError(file: "--config ''", issues: [], unreadable: "the config file's name is empty: name a file")
        }
        if let distrust = ConfigTrust.problem(forConfigAt: path) {
            throw ConfigError(file: path, issues: [], unreadable: "refusing the config: \(distrust)")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileContents.read(path, pipeWait: pipeWait)
        } catch {
            if error.code == ENOENT, let end = SymbolicLinks.end(from: path) {
                throw ConfigError(file: path, issues: [], unreadable: "the config file is a link to \(end), which does not exist")
            }
            throw ConfigError(file: path, issues: [], unreadable: "cannot read the config file: \(error.reason)")
        }
        return try parse(try text(of: bytes, file: path), file: path, keyNames: keyNames)
    }

    /// A config file's bytes as text; not UTF-8 (a file saved as Latin-1), an error at the
    /// place they stop being so.
    public static func text(of bytes: [UInt8], file: String) throws(ConfigError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ConfigError(file: file, issues: [notUTF8(bytes)])
        }
        return text
    }

    /// Where `bytes` stop being UTF-8, as an issue at that line and column (an editor's, in
    /// characters): a file saved as Latin-1 or Windows-1252, whose accented letters are one byte.
    static func notUTF8(_ bytes: [UInt8]) -> ConfigIssue {
        // Windows Notepad's "Unicode": found in review of other locales, named Latin-1.
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            return ConfigIssue(line: 1, column: 1, message: "the config file is UTF-16 text (it begins with UTF-16's byte order mark), as Windows Notepad saves \"Unicode\"; save it as UTF-8")
        }
        var line = 1
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            guard length > 0 else { break }
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += length
        }
        let before = String(decoding: bytes[lineStart..<index], as: UTF8.self)
        let byte = index < bytes.count ? bytes[index] : 0
        let hex = String(byte, radix: 16, uppercase: true)
        return ConfigIssue(line: line, column: before.count + 1,
                           message: "the config file is not UTF-8 text here (byte 0x\(hex)): it was saved in another encoding, such as Latin-1 or Windows-1252; save it as UTF-8")
    }

    /// The length of the UTF-8 sequence at `index`, or 0 where none begins.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count,
              String(validating: bytes[index..<index + length], as: UTF8.self) != nil else { return 0 }
        return length
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
