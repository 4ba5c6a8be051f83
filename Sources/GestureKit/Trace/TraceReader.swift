import Glibc

/// Reads the JSON Lines trace format: a header line, then one event per non-blank line.
/// Keys it does not know are ignored; anything malformed is an error naming its line.
public enum TraceReader {
    /// The whole trace in memory; `open(path:)` reads one event at a time instead.
    public static func load(path: String) throws(TraceError) -> Trace {
        let stream = try open(path: path)
        var events: [ContactEvent] = []
        while let event = try stream.next() { events.append(event) }
        return Trace(header: stream.header, events: events)
    }

    /// The file read as it goes, in fixed-size reads: its header at once, its events one by one.
    public static func open(path: String) throws(TraceError) -> TraceStream {
        try TraceStream(path: path)
    }

    public static func parse(_ text: String, file: String) throws(TraceError) -> Trace {
        try parse(text, file: file, usesScanner: true)
    }

    package static func parse(_ text: String, file: String, usesScanner: Bool) throws(TraceError) -> Trace {
        var parser = TraceLineParser(file: file, usesScanner: usesScanner)
        var events: [ContactEvent] = []
        var text = text
        let result: Result<Void, TraceError> = text.withUTF8 { bytes in
            var lineNumber = 0
            var start = 0
            while start <= bytes.count {
                lineNumber += 1
                let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
                do throws(TraceError) {
                    if let event = try parser.parse(UnsafeBufferPointer(rebasing: bytes[start..<end]), number: lineNumber) {
                        events.append(event)
                    }
                } catch {
                    return .failure(error)
                }
                start = end + 1
            }
            return .success(())
        }
        try result.get()
        guard let header = parser.header else { throw parser.missingHeader() }
        return Trace(header: header, events: events)
    }
}

/// A trace file read as it goes: a fixed-size buffer refilled with read(2), so memory stays
/// the same however long the trace (a single line longer than the buffer grows it).
/// Its state is unchecked for exclusive access: a stream is not shared between threads
/// (not Sendable) and its methods never re-enter, and the runtime's check on each access
/// is a large share of the reading time (BENCHMARKS.md, "Reading traces").
public final class TraceStream {
    public private(set) var header: TraceHeader
    public var file: String { parser.file }
    /// The line last read: the last event's, or the header's before the first event.
    @exclusivity(unchecked) public private(set) var lineNumber = 0

    @exclusivity(unchecked) private var parser: TraceLineParser
    private let descriptor: Int32
    @exclusivity(unchecked) private var buffer: UnsafeMutableBufferPointer<UInt8>
    /// The unread bytes are buffer[start..<end].
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    private var atEndOfFile = false
    private var finished = false

    package static let bufferSize = 256 * 1024

    package init(path: String, bufferSize: Int = TraceStream.bufferSize, usesScanner: Bool = true) throws(TraceError) {
        parser = TraceLineParser(file: path, usesScanner: usesScanner)
        // `-` is standard input, as tools that read files take it (`record | replay -`).
        let descriptor: Int32
        do throws(FileReadError) {
            descriptor = path == "-" ? dup(STDIN_FILENO) : try FileContents.openForReading(path)
        } catch {
            throw TraceError(file: path, line: 0, message: "cannot read the trace: \(error.reason)")
        }
        guard descriptor >= 0 else {
            throw TraceError(file: path, line: 0, message: "cannot read the trace: \(FileReadError(code: errno).reason)")
        }
        self.descriptor = descriptor
        buffer = .allocate(capacity: max(4, bufferSize))
        header = TraceHeader(screen: nil, devices: [])
        do throws(TraceError) {
            try skipByteOrderMark()
            while parser.header == nil {
                guard let line = try nextLine() else { throw parser.missingHeader() }
                // An event before the header is an error the parser names.
                _ = try parser.parse(line, number: lineNumber)
            }
        } catch {
            close()
            throw error
        }
        // The loop above ends only once the header is read.
        header = parser.header ?? header
    }

    deinit { close() }

    /// The next event, or nil at the end of the file.
    public func next() throws(TraceError) -> ContactEvent? {
        while let line = try nextLine() {
            if let event = try parser.parse(line, number: lineNumber) { return event }
        }
        return nil
    }

    private func close() {
        if !buffer.isEmpty {
            _ = Glibc.close(descriptor)
            buffer.deallocate()
            buffer = UnsafeMutableBufferPointer(start: nil, count: 0)
        }
    }

    /// The next line without its line end, valid until the next call.
    private func nextLine() throws(TraceError) -> UnsafeBufferPointer<UInt8>? {
        while true {
            if let newline = newlineIndex() {
                let line = UnsafeBufferPointer(rebasing: buffer[start..<newline])
                start = newline + 1
                lineNumber += 1
                return line
            }
            if atEndOfFile {
                // What follows the last line end is one more line, even when empty.
                guard !finished else { return nil }
                finished = true
                lineNumber += 1
                return UnsafeBufferPointer(rebasing: buffer[start..<end])
            }
            try fill()
        }
    }

    private func newlineIndex() -> Int? {
        guard start < end, let base = buffer.baseAddress else { return nil }
        guard let found = memchr(base + start, 0x0A, end - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The longest line read: a trace's are a few hundred bytes, its header a few kilobytes.
    static let longestLine = 16 << 20

    /// Moves the unread bytes to the front and reads more after them, growing the buffer
    /// when one line fills it.
    private func fill() throws(TraceError) {
        if start > 0 {
            let unread = end - start
            if unread > 0, let base = buffer.baseAddress {
                memmove(base, base + start, unread)
            }
            start = 0
            end = unread
        }
        if end == buffer.count {
            // A line no trace has (`replay /dev/zero`: one endless line, read until memory ran
            // out; found in review).
            guard buffer.count < Self.longestLine else {
                throw TraceError(file: file, line: lineNumber + 1,
                                 message: "a line longer than \(Self.longestLine >> 20) MiB, which no trace line is: is this a trace?")
            }
            let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: buffer.count * 2)
            _ = larger.initialize(fromContentsOf: buffer)
            buffer.deallocate()
            buffer = larger
        }
        while true {
            let count = read(descriptor, buffer.baseAddress.map { $0 + end }, buffer.count - end)
            if count > 0 {
                end += count
                return
            }
            if count == 0 {
                atEndOfFile = true
                return
            }
            let code = errno
            if code == EINTR { continue }
            throw TraceError(file: file, line: 0, message: "cannot read the trace: \(String(cString: strerror(code)))")
        }
    }

    /// A UTF-8 byte order mark at the start is not part of the first line, as when the file
    /// is read as text.
    private func skipByteOrderMark() throws(TraceError) {
        while end < 3, !atEndOfFile { try fill() }
        if end >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { start = 3 }
    }
}
