import Foundation
import Testing
import GestureKit

/// docs/trace-format.md is a contract: every example line it shows decodes into the type that
/// prints it, and the output lines (`replay --json`, `run --json`) encode back to the very bytes
/// the document shows. A renamed or reordered key fails here.
@Suite("Trace format: the documented examples")
struct TraceFormatContractTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/trace-format.md")

    /// The JSON lines of the document's fenced code blocks, in order.
    static func exampleLines() throws -> [String] {
        let text = try String(contentsOf: document, encoding: .utf8)
        var inBlock = false
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inBlock.toggle()
            } else if inBlock, line.hasPrefix("{") {
                lines.append(String(line))
            }
        }
        return lines
    }

    /// The keys of a line, to tell which kind of line it is.
    static func keys(_ line: String) throws -> Set<String> {
        try decode(KeySet.self, line).keys
    }

    /// An object's keys, whatever their values.
    struct KeySet: Decodable {
        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        let keys: Set<String>

        init(from decoder: any Decoder) throws {
            keys = Set(try decoder.container(keyedBy: Key.self).allKeys.map(\.stringValue))
        }
    }

    static func decode<Line: Decodable>(_ type: Line.Type, _ line: String) throws -> Line {
        try JSONDecoder().decode(Line.self, from: Data(line.utf8))
    }

    /// Decodes `line` as `Line` and encodes it again: the same bytes.
    static func expectSameBytes<Line: Codable>(_ type: Line.Type, _ line: String,
                                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let value = try decode(Line.self, line)
        #expect(JSONLineEncoder.line(value) == line, sourceLocation: sourceLocation)
    }

    /// Decodes `line` as `Line`, encodes it and decodes that: the same value. For the trace's own
    /// lines, which the document writes as a person would (`"t":0.000`), not as `record` does.
    static func expectSameValue<Line: Codable & Equatable>(_ type: Line.Type, _ line: String,
                                                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let value = try decode(Line.self, line)
        #expect(try decode(Line.self, JSONLineEncoder.line(value)) == value, sourceLocation: sourceLocation)
    }

    @Test("every example line is a value of its type, and the output lines encode back byte for byte")
    func examples() throws {
        // Each kind of line by a key of its own (the first that matches), and how it reads back.
        let kindsByKey: [(key: String, kind: String, expect: (String) throws -> Void)] = [
            ("trace", "header", { try Self.expectSameValue(TraceHeaderLine.self, $0) }),
            ("phase", "event", { try Self.expectSameValue(TraceEventLine.self, $0) }),
            ("recognizer", "gesture", { try Self.expectSameBytes(GestureLine.self, $0) }),
            ("action", "action", { try Self.expectSameBytes(ActionLine.self, $0) }),
            ("decision", "decision", { try Self.expectSameBytes(DecisionLine.self, $0) }),
            ("learned", "learned", { try Self.expectSameBytes(LearnedLine.self, $0) }),
            ("ownership", "ownership", { try Self.expectSameBytes(OwnershipLine.self, $0) }),
        ]
        var kinds: [String] = []
        for line in try Self.exampleLines() {
            let keys = try Self.keys(line)
            guard let known = kindsByKey.first(where: { keys.contains($0.key) }) else {
                Issue.record("an example line of no known kind: \(line)")
                continue
            }
            try known.expect(line)
            kinds.append(known.kind)
        }
        #expect(kinds == ["header", "event", "event", "event", "gesture", "action", "decision", "decision", "learned",
                          "ownership", "ownership", "ownership", "ownership"])
    }

    @Test("the documented trace lines are what record writes, numbers aside")
    func traceLines() throws {
        let lines = try Self.exampleLines()
        let header = try Self.decode(TraceHeaderLine.self, lines[0])
        #expect(JSONLineEncoder.line(header) == lines[0])
        let event = try Self.decode(TraceEventLine.self, lines[2])
        #expect(JSONLineEncoder.line(event) == #"{"t":0.008,"device":6,"contact":0,"phase":"move","x":110,"y":100,"pressure":300}"#)
        #expect(event.phase == .move && event.pressure == 300)
    }

    @Test("a decision line's values read back typed")
    func typedDecision() throws {
        let lines = try Self.exampleLines().filter { try Self.keys($0).contains("decision") }
        let claim = try Self.decode(DecisionLine.self, lines[0])
        #expect(claim.decision == .claim && claim.winner == "right-click" && claim.reason == nil)
        let release = try Self.decode(DecisionLine.self, lines[1])
        #expect(release.decision == .release && release.reason == .levelledOff && release.winner == nil)
    }

    @Test("every line a replay prints reads back as an OutputLine and encodes to the same bytes")
    func replayLinesRoundTrip() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ios-3dtouch-force-60s.jsonl")
        let trace = try TraceReader.load(path: fixture.path)
        let formatter = OutputFormatter(style: .json)
        let lines = TraceReplay.run(trace, configuration: ConfigLoader.builtInDefault).compactMap(formatter.line(for:))
        #expect(lines.count > 10)
        for line in lines {
            let decoded = try Self.decode(OutputLine.self, line)
            #expect(JSONLineEncoder.line(decoded) == line)
        }
        // And the trace's own lines, as record writes them.
        for event in trace.events.prefix(200) {
            let line = TraceWriter.eventLine(event)
            #expect(JSONLineEncoder.line(try Self.decode(TraceEventLine.self, line)) == line)
        }
    }

    @Test("a line with a key renamed does not decode", arguments: [
        #"{"t":1.234,"gesture":"right-click","recognizer":"deep-press","status":"began","device":6,"contact":0,"x":110,"y":100}"#,
        #"{"t":1.234,"gesture":"right-click","device":6,"contact":0,"action":"click","buttons":3,"x":110,"y":100}"#,
        #"{"ownership":"kept","input":"touch","device":7,"contact":1,"winning":"right-click","held":0.212}"#,
        #"{"ownership":"let-go","input":"press","number":1,"reason":"the bridge is stopping"}"#,
        #"{"event":"config-rejected","source":"c.yaml","text":"c.yaml:3:1: bad"}"#,
        #"{"event":"action-failed","binding":"volume","kind":"volume","amount":"+5%","message":"no"}"#,
    ])
    func renamedKey(line: String) {
        #expect(throws: DecodingError.self) { try Self.decode(OutputLine.self, line) }
    }

    @Test("every run event encodes the keys docs/trace-format.md names for it, and reads back", arguments: Self.runEvents)
    func runEvent(event: RunEventLine, json: String) throws {
        #expect(JSONLineEncoder.line(event) == json)
        #expect(try Self.decode(RunEventLine.self, json) == event)
    }

    static let device = DeviceLine(id: 6, name: "test-pen", kind: "pen", enabled: true, driver: "evdev", type: nil,
                                   pressure: PressureRange(min: 0, max: 1000), pressureMoved: nil, touches: nil,
                                   touchMode: nil, bindings: ["right-click"])
    static let deviceJSON = #"{"id":6,"name":"test-pen","kind":"pen","enabled":true,"driver":"evdev","type":null,"pressure":{"min":0,"max":1000},"touches":null,"listened":true,"bindings":["right-click"]}"#
    static let monitor = MonitorLine(Monitor(name: "LEFT", frame: ScreenRect(x: 0, y: 0, width: 640, height: 800),
                                             widthMillimeters: 0, heightMillimeters: 0, isPrimary: true))

    static let runEvents: [(RunEventLine, String)] = [
        (.listening(config: "<built-in default>", watching: nil, screen: ScreenSize(width: 1280, height: 800),
                    monitors: [monitor], devices: [device]),
         #"{"event":"listening","config":"<built-in default>","watching":null,"screen":{"width":1280,"height":800},"monitors":[{"name":"LEFT","x":0,"y":0,"width":640,"height":800,"primary":true,"width-mm":0,"height-mm":0,"dpi":null}],"devices":["# + deviceJSON + "]}"),
        (.device(.deviceAdded, device), #"{"event":"device-added","device":"# + deviceJSON + "}"),
        (.deviceGone(.deviceDisabled, id: 6, name: "test-pen"), #"{"event":"device-disabled","id":6,"name":"test-pen"}"#),
        (.screenResized(ScreenSize(width: 1024, height: 768)), #"{"event":"screen-resized","width":1024,"height":768}"#),
        (.monitorMissing(binding: "volume", monitor: "HDMI-9", connected: ["LEFT"]),
         #"{"event":"monitor-missing","binding":"volume","monitor":"HDMI-9","connected":["LEFT"]}"#),
        (.deviceMissing(binding: "pen-menu", name: "test-pne", connected: ["test-pen", "test-touch"], suggestion: "test-pen"),
         #"{"event":"device-missing","binding":"pen-menu","name":"test-pne","connected":["test-pen","test-touch"],"suggestion":"test-pen"}"#),
        (.deviceMissing(binding: "tablet", name: "Wacom Intuos S Pen stylus", connected: [], suggestion: nil),
         #"{"event":"device-missing","binding":"tablet","name":"Wacom Intuos S Pen stylus","connected":[],"suggestion":null}"#),
        (.configReloaded(source: "SIGHUP", bindings: ["a", "b"]), #"{"event":"config-reloaded","source":"SIGHUP","bindings":["a","b"]}"#),
        (.configRejected(source: "c.yaml", message: "c.yaml:3:1: bad"), #"{"event":"config-rejected","source":"c.yaml","message":"c.yaml:3:1: bad"}"#),
        (.configUnwatched(path: "c.yaml", reason: "gone"), #"{"event":"config-unwatched","path":"c.yaml","reason":"gone"}"#),
        (.reloadUnavailable, #"{"event":"reload-unavailable"}"#),
        (.actionFailed(binding: "volume", action: .scroll(.up, steps: 2), message: "no"),
         #"{"event":"action-failed","binding":"volume","kind":"scroll","direction":"up","steps":2,"message":"no"}"#),
        (.message(.xError, "BadWindow"), #"{"event":"x-error","message":"BadWindow"}"#),
        (.motionUnheard(device: 6), #"{"event":"motion-unheard","device":6}"#),
        (.pressure(dead: true, device: 6, name: "test-pen"), #"{"event":"pressure-dead","device":6,"name":"test-pen"}"#),
        (.stopping(signal: nil, reason: "taken-over"), #"{"event":"stopping","signal":null,"reason":"taken-over"}"#),
        (.stopping(signal: "SIGTERM", reason: "signal"), #"{"event":"stopping","signal":"SIGTERM","reason":"signal"}"#),
    ]
}
