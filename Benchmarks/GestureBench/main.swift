import GestureKit

// Engine throughput: input samples per second through the default bindings, on one core.
// Usage: gesture-bench [samples] [rounds]

let arguments = CommandLine.arguments.dropFirst()
let samples = arguments.first.flatMap(Int.init) ?? 1_000_000
let rounds = arguments.dropFirst().first.flatMap(Int.init) ?? 5

var session = SyntheticSession(seed: 42)
let events = session.events(samples: samples)
let configuration = ConfigLoader.builtInDefault
print("engine throughput: \(events.count) samples (pen strokes, deep presses, knob circles, two-finger touches), default config, \(rounds) rounds")

var best = Duration.seconds(1_000)
var outputCount = 0
let clock = ContinuousClock()
for round in 1...rounds {
    var engine = GestureEngine(configuration: configuration, devices: session.header.devices, screen: SyntheticSession.screen)
    var outputs: [EngineOutput] = []
    outputs.reserveCapacity(events.count / 2)
    let elapsed = clock.measure {
        for event in events {
            engine.handle(event, into: &outputs)
        }
    }
    outputCount = outputs.count
    best = min(best, elapsed)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print("  round \(round): \(Int(Double(events.count) / seconds)) samples/s (\(outputs.count) outputs)")
}
let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
print("best: \(Int(Double(events.count) / seconds)) samples/s, \(Int(seconds * 1e9 / Double(events.count))) ns per sample, \(outputCount) outputs")
