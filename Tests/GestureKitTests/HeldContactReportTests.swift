import Foundation
import Testing
@testable import GestureKit

/// `replay` says, for each contact it held, when and why it was handed over or kept, and for
/// how long it was held: the numbers a person tunes by.
@Suite("Replay reports each held contact's decision")
struct HeldContactReportTests {
    /// Four pen contacts, as a person makes them: a tap, a drag, a light press held still
    /// (its force jittering around 0.2), and a deliberate press that climbs past 0.7.
    static let trace = """
        {"trace":1,"devices":[{"id":6,"name":"test-pen","kind":"pen","pressure":{"min":0,"max":1000}}]}
        {"t":1.000,"device":6,"contact":0,"phase":"begin","x":100,"y":100,"pressure":200}
        {"t":1.080,"device":6,"contact":0,"phase":"end","x":100,"y":100,"pressure":0}
        {"t":2.000,"device":6,"contact":0,"phase":"begin","x":100,"y":100,"pressure":200}
        {"t":2.030,"device":6,"contact":0,"phase":"move","x":108,"y":100,"pressure":210}
        {"t":2.060,"device":6,"contact":0,"phase":"move","x":130,"y":100,"pressure":205}
        {"t":2.300,"device":6,"contact":0,"phase":"end","x":200,"y":100,"pressure":0}
        {"t":3.000,"device":6,"contact":0,"phase":"begin","x":100,"y":100,"pressure":190}
        {"t":3.050,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":210}
        {"t":3.100,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":195}
        {"t":3.150,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":205}
        {"t":3.200,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":200}
        {"t":3.250,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":203}
        {"t":3.600,"device":6,"contact":0,"phase":"end","x":100,"y":100,"pressure":0}
        {"t":4.000,"device":6,"contact":0,"phase":"begin","x":100,"y":100,"pressure":50}
        {"t":4.100,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":100}
        {"t":4.200,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":150}
        {"t":4.300,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":200}
        {"t":4.400,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":250}
        {"t":4.500,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":300}
        {"t":4.600,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":350}
        {"t":4.700,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":400}
        {"t":4.800,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":450}
        {"t":4.900,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":500}
        {"t":5.000,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":550}
        {"t":5.100,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":600}
        {"t":5.200,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":650}
        {"t":5.300,"device":6,"contact":0,"phase":"move","x":100,"y":100,"pressure":700}
        {"t":5.500,"device":6,"contact":0,"phase":"end","x":100,"y":100,"pressure":0}
        """

    static func decisionLines(style: OutputFormatter.Style) throws -> [String] {
        let trace = try TraceReader.parse(Self.trace, file: "t")
        let formatter = OutputFormatter(style: style, devices: trace.header.devices)
        return TraceReplay.run(trace, configuration: ConfigLoader.builtInDefault).compactMap { output in
            guard case .decision = output else { return nil }
            return formatter.line(for: output)
        }
    }

    @Test("--json: lifted, no gesture (a drag), levelled off, claimed, each with the time it was held")
    func jsonLines() throws {
        expectSameLines(try Self.decisionLines(style: .json), [
            #"{"t":1.08,"decision":"release","reason":"lifted","device":6,"contact":0,"held":0.08}"#,
            #"{"t":2.06,"decision":"release","reason":"no-gesture","device":6,"contact":0,"held":0.06}"#,
            #"{"t":3.2,"decision":"release","reason":"levelled-off","device":6,"contact":0,"held":0.2}"#,
            #"{"t":5.3,"decision":"claim","winner":"right-click","device":6,"contact":0,"held":1.3}"#,
        ])
    }

    @Test("readable lines say the same in words")
    func readableLines() throws {
        let lines = try Self.decisionLines(style: .human)
        #expect(lines.count == 4)
        #expect(lines.last?.contains("kept for right-click after 1.300 s") == true, "\(lines)")
    }

    @Test("a hold that reaches the limit says so; a contact no owning gesture listens to is never reported")
    func limitAndUnbound() throws {
        let formatter = OutputFormatter(style: .json)
        let key = ContactKey(device: 6, contact: 0)
        #expect(formatter.line(for: .decision(.release(key, reason: .limit, time: 9, held: 8)))
            == #"{"t":9,"decision":"release","reason":"limit","device":6,"contact":0,"held":8}"#)
        #expect(formatter.line(for: .decision(.release(key, reason: .unbound, time: 1, held: 0))) == nil)
    }

    @Test("run's readable lines leave out a gesture that failed to begin (an ordinary tap's knob and deep press), --verbose and JSON keep it")
    func failedGesturesOnlyWithEveryChange() {
        func event(_ state: GestureState) -> EngineOutput {
            .gesture(GestureEvent(gesture: "volume", recognizer: .knob, device: 6, contact: 0,
                                  report: GestureReport(state: state, time: 1, position: Point(x: 500, y: 500))))
        }
        var plain = OutputFormatter(style: .human)
        plain.showsEveryChange = false
        #expect(plain.line(for: event(.failed)) == nil)
        #expect(plain.line(for: event(.began)) != nil && plain.line(for: event(.ended)) != nil)
        #expect(OutputFormatter(style: .human).line(for: event(.failed)) != nil, "--verbose and replay")
        var json = OutputFormatter(style: .json)
        json.showsEveryChange = false
        #expect(json.line(for: event(.failed))?.contains(#""state":"failed""#) == true)
    }
}
