import Foundation
import GestureKit

// libFuzzer entry for the trace reader and the engine behind replay: any bytes must give a
// trace or an error naming a line, the same with the scanner as with the full parser alone,
// and any trace that reads must replay without a crash.

/// What any trace input must satisfy (`FuzzerDriver.swift` runs it).
func checkInput(_ data: Data) {
    let text = String(decoding: data, as: UTF8.self)
    let scanned = Result { () throws(TraceError) in try TraceReader.parse(text, file: "fuzz.jsonl") }
    let full = Result { () throws(TraceError) in try TraceReader.parse(text, file: "fuzz.jsonl", usesScanner: false) }
    precondition(scanned == full, "the scanner and the full parser disagree: \(scanned) against \(full)")
    do {
        let trace = try TraceReader.parse(text, file: "fuzz.jsonl")
        _ = TraceReplay.run(trace, configuration: ConfigLoader.builtInDefault)
        _ = PressureStatistics.analyze(trace)
    } catch {
        precondition(!error.message.isEmpty, "an error without a message")
    }
}
