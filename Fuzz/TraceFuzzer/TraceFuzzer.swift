import Foundation
import GestureKit

// libFuzzer entry for the trace reader and the engine behind replay: any bytes must give a
// trace or an error naming a line, the same with the scanner as with the full parser alone,
// and any trace that reads must replay without a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func traceFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    checkFuzzInput(bytes, count, with: checkTrace)
}

func checkTrace(_ data: Data) {
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

@main
struct TraceCorpusReplay {
    static func main() throws {
        try fuzzOrReplay(traceFuzzerTestOneInput, check: checkTrace)
    }
}
