import Foundation
import GestureKit

/// Reading traces: a generated pen trace written to a file, then read by each candidate reader.
enum TraceReading {
    /// One pen at 1000 Hz, strokes and deep presses in turn, whole pressure levels as a pen reports them.
    static func writePenTrace(to path: String, samples: Int) throws {
        var session = SyntheticInput(seed: 7)
        let header = TraceHeader(screen: SyntheticInput.screen, devices: [SyntheticInput.pen])
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteUnknown) }
        defer { try? handle.close() }
        var pending = TraceWriter.headerLine(header) + "\n"
        var written = 0
        while written < samples {
            for var event in session.penEvents(samples: min(100_000, samples - written)) {
                event.pressure = event.pressure?.rounded()
                pending += TraceWriter.eventLine(event)
                pending += "\n"
                written += 1
                if pending.utf8.count > 1 << 20 {
                    try handle.write(contentsOf: Data(pending.utf8))
                    pending = ""
                }
            }
        }
        try handle.write(contentsOf: Data(pending.utf8))
    }

    enum Reader: String, CaseIterable {
        /// The whole file in one string, each line through JSONSerialization.
        case wholeFile = "whole-file"
        /// The file in 256 KiB reads, each line through JSONSerialization (the full parser alone).
        case streamingJSON = "streaming-json"
        /// The file in 256 KiB reads, each line through JSONDecoder into a Codable struct.
        case decoder
        /// The file in 256 KiB reads, the usual lines through the scanner (the reader `replay`
        /// and `analyze` use).
        case scanner
    }

    /// Reads the file once and gives the samples read.
    static func read(_ path: String, with reader: Reader) throws -> Int {
        switch reader {
        case .wholeFile:
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let text = String(data: data, encoding: .utf8) else { throw CocoaError(.fileReadInapplicableStringEncoding) }
            return try TraceReader.parse(text, file: path, usesScanner: false).events.count
        case .streamingJSON, .scanner:
            let stream = try TraceStream(path: path, usesScanner: reader == .scanner)
            var count = 0
            while try stream.next() != nil { count += 1 }
            return count
        case .decoder:
            return try decodeLines(path)
        }
    }

    /// JSONDecoder per event line into the trace's own `TraceEventLine`, the file read in 256 KiB
    /// chunks; the header line is skipped.
    private static func decodeLines(_ path: String) throws -> Int {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
        defer { try? handle.close() }
        let decoder = JSONDecoder()
        var pending = Data()
        var count = 0
        var sawHeader = false
        func decode(_ line: Data) throws {
            guard !line.isEmpty else { return }
            guard sawHeader else {
                sawHeader = true
                return
            }
            _ = try decoder.decode(TraceEventLine.self, from: line)
            count += 1
        }
        while let chunk = try handle.read(upToCount: 256 * 1024), !chunk.isEmpty {
            pending.append(chunk)
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                try decode(pending[start..<newline])
                start = newline + 1
            }
            pending = Data(pending[start...])
        }
        try decode(pending)
        return count
    }

    /// Peak resident memory of this process so far, in MiB.
    static func peakResidentMiB() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}
