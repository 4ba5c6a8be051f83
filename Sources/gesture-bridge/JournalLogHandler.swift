import Glibc
import Logging
import X11Bridge

/// Log lines for the systemd journal, used when standard error is the journal's stream (the
/// installed user unit's): each line begins with its syslog priority, `<4>` for a warning,
/// which journald takes as the line's priority and strips, so `journalctl -p warning` and a
/// desktop's log viewer find the warnings and errors; the journal stamps the time itself.
struct JournalLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    /// Where the lines go, when not straight to standard error.
    var output: DetachedWriter?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let metadata = event.metadata { all.merge(metadata) { $1 } }
        let text = Self.entry(level: event.level, message: "\(event.message)", metadata: all) + "\n"
        if let output {
            output.write(text: text)
            return
        }
        // One write: lines of two threads never interleave within a message.
        _ = text.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }

    /// The syslog priority of a level (sd-daemon(3)): debug 7 to critical 2.
    static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// The message as the journal reads it: every line of it with the priority, since the
    /// journal takes each line for an entry of its own (no newline after the last).
    static func entry(level: Logger.Level, message: String, metadata: Logger.Metadata = [:]) -> String {
        let prefix = "<\(priority(of: level))>"
        let details = metadata.isEmpty ? "" : " " + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return (message + details).split(separator: "\n", omittingEmptySubsequences: false)
            .map { prefix + $0 }.joined(separator: "\n")
    }

    /// Whether standard error is the journal's stream: `JOURNAL_STREAM` (set by systemd for a
    /// unit whose output goes to the journal) names its device and inode, and a stream
    /// redirected since (`2> file`) is not it.
    static func standardErrorIsJournal(environment: [String: String]) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
