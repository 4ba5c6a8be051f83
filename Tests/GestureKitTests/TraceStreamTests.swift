import Foundation
import Testing
@testable import GestureKit

/// The streaming reader: the file read in fixed-size pieces, and the scanner that reads the
/// usual event lines, give what the full parser gives for the whole text, line for line.
@Suite("Trace streaming")
struct TraceStreamTests {
    static let header = TraceTests.header

    static func file(_ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trace-stream-\(UUID().uuidString).jsonl")
        try Data(bytes).write(to: url)
        return url.path
    }

    static func read(_ path: String, bufferSize: Int, usesScanner: Bool = true) -> Result<Trace, TraceError> {
        Result { () throws(TraceError) in
            let stream = try TraceStream(path: path, bufferSize: bufferSize, usesScanner: usesScanner)
            var events: [ContactEvent] = []
            while let event = try stream.next() { events.append(event) }
            return Trace(header: stream.header, events: events)
        }
    }

    static func parse(_ text: String, usesScanner: Bool) -> Result<Trace, TraceError> {
        Result { () throws(TraceError) in try TraceReader.parse(text, file: "t.jsonl", usesScanner: usesScanner) }
    }

    /// Event lines of every shape the scanner reads or must hand on: numbers in each JSON
    /// form, keys in any order, white space, unknown keys, nulls, and lines it must refuse.
    static let eventLines: [String] = {
        let numbers = ["0", "1", "12", "0.5", "0.008", "110.25", "1e2", "1E+2", "25e-1", "1.5e-3", "-0", "-0.0", "-1.5",
                       "0.1", "0.30000000000000004", "123456789012345", "1234567890123456", "0.24000000000000002",
                       "1e22", "1e23", "1e-22", "1e-23", "9007199254740993", "01", "1.", ".5", "1e", "+1", "1e400",
                       "0.000000000000000000000001", "5e-324", "true", "null", "\"1\"", "[1]", "{}",
                       // Zero with an exponent: this toolchain's JSONDecoder refuses some (0e9, 0.00E6) and
                       // reads others (0e0, 0e22, 0.0e1); found by fuzzing.
                       "0e9", "0E1", "0.00E6", "0.00e-3", "0e+9", "0e0", "0e22", "0.0e1", "-0e1"]
        var lines: [String] = []
        for number in numbers {
            lines.append(#"{"t":"# + number + #","device":6,"contact":0,"phase":"move","x":1,"y":2,"pressure":3}"#)
            lines.append(#"{"t":0,"device":6,"contact":0,"phase":"move","x":"# + number + #","y":2,"pressure":"# + number + "}")
            lines.append(#"{"t":0,"device":7,"contact":"# + number + #","phase":"begin","x":1,"y":2}"#)
            lines.append(#"{"t":0,"device":8,"contact":0,"phase":"hover","x":1,"y":2,"pressure":"# + number + "}")
            lines.append(#"{"t":0,"device":"# + number + #","contact":0,"phase":"end","x":1,"y":2,"pressure":0}"#)
            lines.append(#"{"t":0,"device":6,"contact":0,"phase":"end","x":1,"y":2,"tilt":"# + number + "}")
        }
        lines += [
            #"{"device":6,"t":0.5,"y":2,"x":1,"phase":"cancel","contact":0}"#,
            #"  { "t" : 1 , "device" : 6 , "contact" : 0 , "phase" : "move" , "x" : 1 , "y" : 2 }  "#,
            "\t{\"t\":1,\"device\":6,\"contact\":0,\"phase\":\"move\",\"x\":1,\"y\":2}\r",
            "\u{0B}{\"t\":1,\"device\":6,\"contact\":0,\"phase\":\"move\",\"x\":1,\"y\":2}\u{0C}",
            "\u{A0}{\"t\":1,\"device\":6,\"contact\":0,\"phase\":\"move\",\"x\":1,\"y\":2}\u{2028}",
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2,"x":3}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2,"note":"a","note":"b"}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2,"name":"caf\u00e9"}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2,"name":"café"}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"mov\u0065","x":1,"y":2}"#,
            #"{"\u0074":1,"device":6,"contact":0,"phase":"move","x":1,"y":2}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"MOVE","x":1,"y":2}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1}"#,
            #"{"t":1,"device":6,"contact":-1,"phase":"move","x":1,"y":2}"#,
            #"{"t":-1,"device":6,"contact":0,"phase":"move","x":1,"y":2}"#,
            #"{"t":1,"device":9,"contact":0,"phase":"move","x":1,"y":2}"#,
            #"{"t":1,"device":6,"contact":0.5,"phase":"move","x":1,"y":2}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2,"pressure":null}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2,"pressure":"3"}"#,
            #"{"t":1,"device":8,"contact":0,"phase":"move","x":1,"y":2,"pressure":"3"}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2,"extra":{"a":[1,2]}}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2,"flag":false}"#,
            #"{"trace":1,"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2}}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2,}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2} {}"#,
            #"{"t":1 "device":6,"contact":0,"phase":"move","x":1,"y":2}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":nul}"#,
            #"{"t":1,"device":6,"contact":0,"phase":"move","x":1,"y":2"#,
            #"[1,2]"#, "{}", "}", "{", #"{"t"}"#, "{\"t\":1,\"phase\":\"mo\tve\"}",
        ]
        return lines
    }()

    @Test("the scanner gives the full parser's event or error for every line shape")
    func scannerMatchesFullParser() {
        for line in Self.eventLines {
            let text = Self.header + "\n" + line
            let scanned = Self.parse(text, usesScanner: true)
            let full = Self.parse(text, usesScanner: false)
            #expect(scanned == full, "\(line)")
            // Bit for bit: -0.0 and 0.0 compare equal.
            if case .success(let a) = scanned, case .success(let b) = full {
                #expect(a.events.map(\.position.x.bitPattern) == b.events.map(\.position.x.bitPattern), "\(line)")
                #expect(a.events.map(\.time.bitPattern) == b.events.map(\.time.bitPattern), "\(line)")
            }
        }
    }

    @Test("the scanner reads the lines the trace writer writes")
    func scannerReadsWrittenLines() {
        let event = ContactEvent(time: 12.345678, device: 6, contact: 0, phase: .move, position: Point(x: 110.5, y: 99.25), pressure: 300)
        let scanned = TraceWriter.eventLine(event).utf8.withContiguousStorageIfAvailable(TraceEventScanner.scan) ?? nil
        #expect(scanned?.time == 12.345678 && scanned?.x == 110.5 && scanned?.y == 99.25 && scanned?.pressure == 300)
        #expect(scanned?.phase == .move && scanned?.device == 6 && scanned?.contact == 0)
    }

    @Test("a file read in pieces of any size gives the whole text's trace, or its error on the same line", arguments: [4, 7, 64, 4096])
    func piecesOfAnySize(bufferSize: Int) throws {
        let good = Self.header + "\n\n" + """
            {"t":0,"device":6,"contact":0,"phase":"begin","x":100,"y":100,"pressure":50}
            {"t":0.008,"device":6,"contact":0,"phase":"move","x":110,"y":100,"pressure":300,"tilt":12}
               
            {"t":0.016,"device":6,"contact":0,"phase":"end","x":110,"y":100,"pressure":0}
            """
        for text in [good, good + "\n", good + "\n\n", good + "\nnot json", good + "\n" + #"{"t":0.001,"device":6,"contact":0,"phase":"end","x":1,"y":1}"#] {
            let path = try Self.file(Array(text.utf8))
            defer { try? FileManager.default.removeItem(atPath: path) }
            var expected = Self.parse(text, usesScanner: false)
            if case .failure(var error) = expected {
                error.file = path
                expected = .failure(error)
            }
            #expect(Self.read(path, bufferSize: bufferSize) == expected)
            #expect(Self.read(path, bufferSize: bufferSize, usesScanner: false) == expected)
        }
    }

    @Test("the fuzzing seed corpus reads the same through the scanner and the full parser")
    func corpusMatches() throws {
        for file in FuzzRegressionTests.files("corpus/trace") + FuzzRegressionTests.files("regressions/trace") {
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            #expect(Self.parse(text, usesScanner: true) == Self.parse(text, usesScanner: false), "\(file.lastPathComponent)")
        }
    }

    @Test("Windows line ends read: each CR LF ends a line")
    func windowsLineEnds() throws {
        let text = Self.header + "\r\n" + #"{"t":0,"device":6,"contact":0,"phase":"begin","x":1,"y":1,"pressure":5}"#
            + "\r\n" + #"{"t":0.5,"device":6,"contact":0,"phase":"end","x":1,"y":1,"pressure":0}"# + "\r\n"
        #expect(try TraceReader.parse(text, file: "t").events.count == 2)
        let path = try Self.file(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try TraceReader.load(path: path).events.count == 2)
        let bad = try Self.file(Array((text + "not json\r\n").utf8))
        defer { try? FileManager.default.removeItem(atPath: bad) }
        #expect(Self.read(bad, bufferSize: 16).failure?.line == 4)
    }

    @Test("text that is not UTF-8 is an error naming its line")
    func notUTF8() throws {
        let event = #"{"t":0,"device":6,"contact":0,"phase":"begin","x":1,"y":1,"pressure":5,"name":""#
        let path = try Self.file(Array((Self.header + "\n" + event).utf8) + [0xFF, 0x22, 0x7D, 0x0A])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = Self.read(path, bufferSize: 64).failure
        #expect(error?.line == 2)
        #expect(error?.message == "the trace is not UTF-8 text")
    }

    @Test("a byte order mark before the header is read past, as when the file is read as text")
    func byteOrderMark() throws {
        let text = Self.header + "\n" + #"{"t":0,"device":6,"contact":0,"phase":"begin","x":1,"y":1,"pressure":5}"#
        let path = try Self.file([0xEF, 0xBB, 0xBF] + Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try TraceReader.load(path: path) == TraceReader.parse(text, file: "t"))
        let empty = try Self.file([0xEF, 0xBB, 0xBF])
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(Self.read(empty, bufferSize: 64).failure?.message.contains("empty") == true)
    }

    @Test("a directory given as the trace says so (it said \"NSCocoaErrorDomain error 256\")")
    func directory() {
        let error = Self.read(FileManager.default.temporaryDirectory.path, bufferSize: 64).failure
        #expect(error?.message == "cannot read the trace: Is a directory")
    }

    @Test("a replay fed one event at a time gives the whole trace's outputs")
    func replayerMatchesRun() throws {
        let trace = try TraceReader.parse(Self.header + "\n" + """
            {"t":0,"device":6,"contact":0,"phase":"begin","x":100,"y":100,"pressure":50}
            {"t":0.1,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":900}
            {"t":0.2,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":950}
            {"t":2,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":950}
            """, file: "t")
        var replayer = TraceReplayer(header: trace.header, configuration: ConfigLoader.builtInDefault)
        var outputs: [EngineOutput] = []
        for event in trace.events { replayer.handle(event, into: &outputs) }
        replayer.finish(into: &outputs)
        #expect(!outputs.isEmpty)
        #expect(outputs == TraceReplay.run(trace, configuration: ConfigLoader.builtInDefault))
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
