import Foundation
import Testing
@testable import GestureKit

@Suite("Trace format")
struct TraceTests {
    static let header = #"{"trace":1,"screen":{"width":1280,"height":800},"devices":[{"id":6,"name":"test-pen","kind":"pen","pressure":{"min":0,"max":1000}},{"id":7,"name":"test-touch","kind":"touch","pressure":{"min":0,"max":2047}},{"id":8,"name":"mouse","kind":"mouse","pressure":null}]}"#

    func error(_ text: String) -> TraceError? {
        do {
            _ = try TraceReader.parse(text, file: "t.jsonl")
            return nil
        } catch {
            return error
        }
    }

    @Test("the contract's example reads as written")
    func readsContractExample() throws {
        let text = Self.header + "\n" + """
            {"t":0.000,"device":6,"contact":0,"phase":"begin","x":100,"y":100,"pressure":50}
            {"t":0.008,"device":6,"contact":0,"phase":"move","x":110,"y":100,"pressure":300,"tilt":12}

            {"t":0.016,"device":6,"contact":0,"phase":"end","x":110,"y":100,"pressure":0}
            {"t":0.020,"device":8,"contact":0,"phase":"hover","x":5,"y":6}
            """
        let trace = try TraceReader.parse(text, file: "t.jsonl")
        #expect(trace.header.screen == ScreenSize(width: 1280, height: 800))
        #expect(trace.header.devices.map(\.kind) == [.pen, .touch, .mouse])
        #expect(trace.header.devices[1].pressure == PressureRange(min: 0, max: 2047))
        #expect(trace.header.devices[2].pressure == nil)
        #expect(trace.events.count == 4)
        #expect(trace.events[1] == ContactEvent(time: 0.008, device: 6, contact: 0, phase: .move,
                                                 position: Point(x: 110, y: 100), pressure: 300))
        #expect(trace.events[3].pressure == nil)
    }

    @Test("writing then reading gives the same trace")
    func roundTrip() throws {
        let original = try TraceReader.parse(Self.header + "\n" + """
            {"t":0,"device":7,"contact":3,"phase":"begin","x":10.5,"y":20.25,"pressure":1023.5}
            {"t":1.5,"device":7,"contact":3,"phase":"cancel","x":11,"y":21,"pressure":0}
            """, file: "a")
        let written = TraceWriter.text(original)
        #expect(try TraceReader.parse(written, file: "b") == original)
        #expect(written.hasPrefix(#"{"trace":1,"screen":{"width":1280,"height":800},"devices":[{"id":6,"name":"test-pen","kind":"pen","pressure":{"min":0,"max":1000}}"#))
    }

    @Test("numbers with more digits than a Double keeps read as numbers, as Python and other tools write them")
    func longNumbers() throws {
        let trace = try TraceReader.parse(Self.header + "\n" + """
            {"t":0.24000000000000002,"device":6,"contact":0,"phase":"begin","x":100.10000000000000001,"y":1e2,"pressure":300.00000000000006}
            """, file: "t.jsonl")
        #expect(trace.events.first?.time == 0.24000000000000002)
        #expect(trace.events.first?.position == Point(x: 100.1, y: 100))
        #expect(trace.events.first?.pressure == 300.00000000000006)
    }

    @Test("malformed lines are errors naming their line")
    func malformedLines() {
        #expect(error("")?.message.contains("empty") == true)
        #expect(error(#"{"t":0,"device":6}"#)?.message.contains("first line must be the header") == true)
        #expect(error(#"{"trace":2,"devices":[]}"#)?.message.contains("version 2") == true)
        #expect(error(Self.header + "\nnot json")?.line == 2)
        let backwards = error(Self.header + "\n" + #"{"t":1,"device":6,"contact":0,"phase":"begin","x":1,"y":1,"pressure":1}"#
            + "\n" + #"{"t":0.5,"device":6,"contact":0,"phase":"end","x":1,"y":1,"pressure":0}"#)
        #expect(backwards?.line == 3 && backwards?.message.contains("back in time") == true)
        let unknownDevice = error(Self.header + "\n" + #"{"t":0,"device":9,"contact":0,"phase":"begin","x":1,"y":1}"#)
        #expect(unknownDevice?.message.contains("device 9 is not in the header") == true)
        #expect(error(Self.header + "\n" + #"{"t":0,"device":6,"contact":0,"phase":"press","x":1,"y":1}"#)?.message.contains("unknown phase") == true)
        #expect(error(Self.header + "\n" + #"{"t":0,"device":6,"contact":0,"phase":"move","x":"1","y":1}"#)?.message.contains("`x` must be a number") == true)
        #expect(error(Self.header + "\n" + #"{"t":0,"device":6,"contact":0,"phase":"move","x":true,"y":1}"#)?.message.contains("`x` must be a number") == true)
        #expect(error(#"{"trace":1,"devices":[{"id":1,"kind":"pen","pressure":{"min":5,"max":5}}]}"#)?.message.contains("greater than min") == true)
        #expect(error(#"{"trace":1,"devices":[{"id":1,"kind":"stylus","pressure":null}]}"#)?.message.contains("unknown kind") == true)
    }

    @Test("a number too large for a Double is named as such, where it is, not as a syntax error; a broken line is still not JSON")
    func numberTooLarge() {
        let huge = error(Self.header + "\n" + #"{"t":0,"device":6,"contact":0,"phase":"begin","x":1e999,"y":1,"pressure":1}"#)
        #expect(huge?.line == 2 && huge?.message == "the number 1e999 is too large for a trace (it reads as infinity)", "\(String(describing: huge))")
        let negative = error(#"{"trace":1,"devices":[{"id":1,"kind":"pen","pressure":{"min":-2e400,"max":5}}]}"#)
        #expect(negative?.message.contains("the number -2e400 is too large") == true, "\(String(describing: negative))")
        #expect(error(Self.header + "\n" + #"{"t":0,"device":6,"x":1e9"#)?.message.contains("not valid JSON") == true)
    }

    /// Found in review of the seeds: the iPhone recording (a JSON list of forces, one a line)
    /// given to replay was told its first line `[` is not JSON, and nothing of what a trace is.
    @Test("a JSON file of another shape is told it is not a trace and what a trace's first line is")
    func otherJSONIsNotATrace() {
        for text in ["[\n  0,\n  0.05\n]", "[0, 0.05, 0.1]", "{\"forces\": [0, 0.1]}"] {
            let error = error(text)
            #expect(error?.line == 1 && error?.message.contains("first line must be the header") == true
                    || error?.message.contains("this is not a trace, whose first line is its header") == true, "\(text): \(String(describing: error))")
        }
    }

    @Test("a missing file is a clear error")
    func missingFile() {
        let error = #expect(throws: TraceError.self, "loaded a missing file") {
            try TraceReader.load(path: "/nonexistent/trace.jsonl")
        }
        #expect(error?.description.contains("cannot read the trace") == true)
    }
}
