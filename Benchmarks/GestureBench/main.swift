import Foundation
import GestureKit

// Engine throughput: input samples per second through the default bindings, on one core;
// then reading a trace: samples per second through the reader `replay` and `analyze` use.
// Usage: gesture-bench [samples] [rounds] [both|learning|fixed]
//        (the built-in default config, which learns the hand, and the same with `learn: false`)
//        gesture-bench write-trace FILE [samples]     one pen at 1000 Hz (default 300000 samples)
//        gesture-bench read FILE READER [rounds]      READER: whole-file, streaming-json, decoder, scanner

let clock = ContinuousClock()

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Reads the file `rounds` times with one reader and prints each round and the best, and the
/// process's peak resident memory when the reading is all it did.
func measureReading(_ path: String, with reader: TraceReading.Reader, rounds: Int, showsPeak: Bool) throws {
    var best = Duration.seconds(1_000)
    var count = 0
    for round in 1...rounds {
        let elapsed = try clock.measure { count = try TraceReading.read(path, with: reader) }
        best = min(best, elapsed)
        print("  round \(round): \(Int(Double(count) / seconds(elapsed))) samples/s")
    }
    let peak = showsPeak ? String(format: ", peak resident %.1f MiB", TraceReading.peakResidentMiB()) : ""
    print("trace reading, \(reader.rawValue): \(count) samples, best \(String(format: "%.3f", seconds(best))) s, "
        + "\(Int(Double(count) / seconds(best))) samples/s\(peak)")
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "write-trace":
    guard arguments.count >= 2 else { fatalError("usage: gesture-bench write-trace FILE [samples]") }
    try TraceReading.writePenTrace(to: arguments[1], samples: arguments.dropFirst(2).first.flatMap(Int.init) ?? 300_000)
case "read":
    guard arguments.count >= 3, let reader = TraceReading.Reader(rawValue: arguments[2]) else {
        fatalError("usage: gesture-bench read FILE \(TraceReading.Reader.allCases.map(\.rawValue).joined(separator: "|")) [rounds]")
    }
    try measureReading(arguments[1], with: reader, rounds: arguments.dropFirst(3).first.flatMap(Int.init) ?? 3, showsPeak: true)
default:
    let samples = arguments.first.flatMap(Int.init) ?? 1_000_000
    let rounds = arguments.dropFirst().first.flatMap(Int.init) ?? 5

    var session = SyntheticInput(seed: 42)
    let events = session.events(samples: samples)
    // The built-in default learns the hand (`threshold: learned`); the same bindings with
    // `learn: false` show what learning costs.
    var fixed = ConfigLoader.builtInDefault
    fixed.learn = false
    let which = arguments.dropFirst(2).first ?? "both"
    let configurations = [("learning", "default config", ConfigLoader.builtInDefault),
                          ("fixed", "default config, learn: false", fixed)].filter { which == "both" || which == $0.0 }
    guard !configurations.isEmpty else { fatalError("usage: gesture-bench [samples] [rounds] [both|learning|fixed]") }
    for (_, name, configuration) in configurations {
        print("engine throughput: \(events.count) samples (pen strokes, deep presses, knob circles, two-finger touches), \(name), \(rounds) rounds")
        var best = Duration.seconds(1_000)
        var outputCount = 0
        for round in 1...rounds {
            var engine = GestureEngine(configuration: configuration, devices: session.header.devices, screen: SyntheticInput.screen)
            var outputs: [EngineOutput] = []
            outputs.reserveCapacity(events.count / 2)
            let elapsed = clock.measure {
                for event in events {
                    engine.handle(event, into: &outputs)
                }
            }
            outputCount = outputs.count
            best = min(best, elapsed)
            print("  round \(round): \(Int(Double(events.count) / seconds(elapsed))) samples/s (\(outputs.count) outputs)")
        }
        print("best: \(Int(Double(events.count) / seconds(best))) samples/s, \(Int(seconds(best) * 1e9 / Double(events.count))) ns per sample, \(outputCount) outputs")
    }

    // The reader on a 300,000-sample pen trace in a temporary file.
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bench-\(getpid()).jsonl").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try TraceReading.writePenTrace(to: path, samples: 300_000)
    try measureReading(path, with: .scanner, rounds: rounds, showsPeak: false)
}
