import Foundation
import XorgTestSupport

// Measures the real bridge on a headless Xorg with the inputtest pen:
//   gesture-measure [--bridge PATH] [--presses N] [--load-seconds S] [--pulse]
//   gesture-measure [--bridge PATH] --soak [SECONDS] [--soak-gap MS]
// start-up (launch to listening), deep-press latency against two references (the server's own
// delivery of a pen button, and `xdotool click 3`) and from a pen that was hovering, idle
// wakeups and CPU over 10 s, CPU under three 1000 Hz pen streams (drawing, hovering, turning a
// knob), the CPU a do-nothing reader of the drawing stream takes (ReferenceReader.swift), and
// memory as private dirty and Pss (Memory.swift), idle and after the loads, beside `xev`'s in
// the same run. `--soak` runs the soak instead (Soak.swift): generated gestures
// through the default config for SECONDS (600 by default), exiting non-zero when a check
// fails.

struct Options {
    var bridge: String
    var presses = 200
    var loadSeconds = 60.0
    /// Draw the deep-press pulse (the overlay's cost lands in the latency).
    var pulse = false
    /// Seconds of the soak; nil for the usual measurements.
    var soakSeconds: Double?
    /// Milliseconds between the soak's gestures.
    var soakGap = 50.0
    /// Only these load streams, nothing before them and no reference reader (for profiling
    /// one stream); nil for every measurement.
    var loadOnly: Set<String>?

    init() {
        let here = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        bridge = here.appendingPathComponent("gesture-bridge").path
        var arguments = CommandLine.arguments.dropFirst()
        while let flag = arguments.popFirst() {
            switch flag {
            case "--bridge": bridge = arguments.popFirst() ?? bridge
            case "--presses": presses = arguments.popFirst().flatMap(Int.init) ?? presses
            case "--load-seconds": loadSeconds = arguments.popFirst().flatMap(Double.init) ?? loadSeconds
            case "--pulse": pulse = true
            case "--reference-reader": ReferenceReader.run()
            case "--load-only":
                loadOnly = Set((arguments.popFirst() ?? "").split(separator: ",").map(String.init))
            case "--soak-gap": soakGap = arguments.popFirst().flatMap(Double.init) ?? soakGap
            case "--soak":
                soakSeconds = 600
                if let next = arguments.first, let seconds = Double(next), seconds > 0 {
                    soakSeconds = seconds
                    arguments.removeFirst()
                }
            default:
                FileHandle.standardError.write(Data("usage: gesture-measure [--bridge PATH] [--presses N] [--load-seconds S] [--pulse] [--load-only drawing,hovering,turning] | [--bridge PATH] --soak [SECONDS] [--soak-gap MS]\n".utf8))
                exit(2)
            }
        }
    }
}

func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func ms(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }

/// CPU time, context switches and memory of a process. CPU time is the scheduler's own runtime
/// count (`/proc/PID/schedstat`, nanoseconds); utime and stime in `/proc/PID/stat` are sampled
/// at the clock tick, too coarse for a process that runs for microseconds at a time.
struct ProcessSample {
    var cpuSeconds: Double
    var switches: Int
    var memory: MemoryFigures

    init(pid: Int32) {
        let schedstat = (try? String(contentsOfFile: "/proc/\(pid)/schedstat", encoding: .utf8)) ?? ""
        cpuSeconds = (schedstat.split(separator: " ").first.flatMap { Double($0) } ?? 0) / 1e9
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        var switches = 0
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let value = Int(parts[1].trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? 0
            if parts[0].hasSuffix("ctxt_switches") { switches += value }
        }
        self.switches = switches
        memory = MemoryFigures(pid: pid)
    }
}

final class BridgeRun {
    let process = Process()
    let errors = Pipe()

    /// `stateHome` is the bridge's `XDG_STATE_HOME`: a folder of this run's own, so the user's
    /// learned state is neither read (it would change what is measured) nor written.
    convenience init(bridge: String, config: String, server: HeadlessXorg, stateHome: String) throws {
        try self.init(executable: bridge, arguments: ["run", "--config", config], server: server, stateHome: stateHome)
    }

    init(executable: String, arguments: [String], server: HeadlessXorg, stateHome: String) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = server.clientEnvironment
        environment["XDG_STATE_HOME"] = stateHome
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try ChildProcessLauncher.run(process)
    }

    /// Seconds until the bridge (or the reference reader) logs that it listens to its devices.
    func waitUntilListening(since start: Double) -> Double? {
        var seen = ""
        let handle = errors.fileHandleForReading
        while now() - start < 10 {
            let data = handle.availableData
            if data.isEmpty { return nil }
            seen += String(decoding: data, as: UTF8.self)
            if seen.contains("listening to") { return now() - start }
        }
        return nil
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
    }
}

let options = Options()
// A binary written moments ago (a fresh link) has dirty pages in the page cache until they are
// written back, and smaps counts those as the process's own private dirty pages: write them
// back before measuring.
sync()
if let reason = HeadlessXorg.unavailableReason() {
    print("cannot measure: \(reason)")
    exit(1)
}
if let seconds = options.soakSeconds {
    exit(try Soak.run(seconds: seconds, gap: max(0, options.soakGap) / 1000, bridgePath: options.bridge))
}
let server = try HeadlessXorg()
defer { server.stop() }
let app = try RecorderWindow(server: server, wmClass: ("measure", "Measure"))
/// A knob in the top-right corner, away from where the presses and the drawing go.
let knobCenter = (x: 1130, y: 150)
let configPath = NSTemporaryDirectory() + "gesture-measure-\(getpid()).yaml"
try """
    bindings:
      - {name: right-click, gesture: deep-press, devices: [pen], threshold: 0.5, release: 0.3, feedback: \(options.pulse ? "pulse" : "none"), action: {click: right}}
      - {name: wheel, gesture: knob, devices: [pen], center: [\(knobCenter.x), \(knobCenter.y)], inner-radius: 30, outer-radius: 120, step: 15, clockwise: {scroll: down}, counterclockwise: {scroll: up}}
    """.write(toFile: configPath, atomically: true, encoding: .utf8)
defer { try? FileManager.default.removeItem(atPath: configPath) }
let stateHome = NSTemporaryDirectory() + "gesture-measure-state-\(getpid())"
defer { try? FileManager.default.removeItem(atPath: stateHome) }

print("machine: \(ProcessInfo.processInfo.activeProcessorCount) cores; bridge: \(options.bridge); pulse feedback \(options.pulse ? "on" : "off")")

if options.loadOnly == nil {
// Start-up.
var startups: [Double] = []
for _ in 0..<5 {
    let start = now()
    let run = try BridgeRun(bridge: options.bridge, config: configPath, server: server, stateHome: stateHome)
    if let seconds = run.waitUntilListening(since: start) { startups.append(seconds) }
    run.stop()
}
print("start-up, launch to listening: median \(ms(percentile(startups, 0.5))), max \(ms(startups.max() ?? .nan)) over \(startups.count) launches")
}

let bridge = try BridgeRun(bridge: options.bridge, config: configPath, server: server, stateHome: stateHome)
defer { bridge.stop() }
_ = bridge.waitUntilListening(since: now())
let pid = bridge.process.processIdentifier

// Memory idle, before any input, beside a bare Xlib client's: both settled for two seconds.
let xev = try XevRun(server: server)
defer { xev.stop() }
Thread.sleep(forTimeInterval: 2)
let xevPid = xev.process.processIdentifier
print("memory idle after start-up: bridge \(MemoryFigures(pid: pid).description); xev \(MemoryFigures(pid: xevPid).description)")
print("private dirty by mapping, idle: bridge \(privateDirtyByMapping(pid: pid)); xev \(privateDirtyByMapping(pid: xevPid))")

if options.loadOnly == nil {

// The floor: a pen side button straight from the server to the window.
var floor: [Double] = []
for _ in 0..<options.presses {
    app.drain()
    let start = now()
    try server.pen.setButton(2, pressed: true)
    let got = app.events(waitingUpTo: 2) { $0.contains { $0.kind == .buttonPress && $0.button == 2 } }
    if got.contains(where: { $0.kind == .buttonPress && $0.button == 2 }) { floor.append(now() - start) }
    try server.pen.setButton(2, pressed: false)
}

// The bridge: pressure crosses the threshold → the window's button-3 press.
var bridgeLatency: [Double] = []
for index in 0..<options.presses {
    let point = (x: 200.0 + Double(index % 40) * 20, y: 300.0 + Double(index / 40) * 20)
    try server.pen.down(at: point, pressure: 0.1)
    app.drain()
    let start = now()
    try server.pen.press(to: 0.9)
    let got = app.events(waitingUpTo: 2) { $0.contains { $0.kind == .buttonPress && $0.button == 3 } }
    if got.contains(where: { $0.kind == .buttonPress && $0.button == 3 }) { bridgeLatency.append(now() - start) }
    try server.pen.up()
    _ = app.events(waitingUpTo: 0.5) { $0.contains { $0.kind == .buttonRelease && $0.button == 3 } }
}

// The same from a pen that was hovering fast (100 ms at 1000 Hz, which the bridge reads in
// batches), going down light and then pressing: at once, the crossing in the batch that brings
// the touch-down (the worst case), or 20 ms after touching down, as a hand does.
@MainActor func deepPressFromHover(index: Int, settle: Double) throws -> Double? {
    let point = (x: 200.0 + Double(index % 40) * 20, y: 500.0 + Double(index / 40) * 20)
    for step in 0..<100 {
        try server.pen.hover(to: (point.x - 100 + Double(step), point.y))
        usleep(1000)
    }
    try server.pen.down(at: point, pressure: 0.1)
    if settle > 0 { usleep(useconds_t(settle * 1e6)) }
    app.drain()
    let start = now()
    try server.pen.press(to: 0.9)
    let got = app.events(waitingUpTo: 2) { $0.contains { $0.kind == .buttonPress && $0.button == 3 } }
    let latency = got.contains(where: { $0.kind == .buttonPress && $0.button == 3 }) ? now() - start : nil
    try server.pen.up()
    _ = app.events(waitingUpTo: 0.5) { $0.contains { $0.kind == .buttonRelease && $0.button == 3 } }
    return latency
}
var fromHoverAtOnce: [Double] = []
var fromHoverAfter20: [Double] = []
for index in 0..<max(1, options.presses / 2) {
    if let latency = try deepPressFromHover(index: index, settle: 0) { fromHoverAtOnce.append(latency) }
    if let latency = try deepPressFromHover(index: index, settle: 0.02) { fromHoverAfter20.append(latency) }
}
try server.pen.leave()

// What a script does: spawn xdotool.
var xdotool: [Double] = []
for _ in 0..<min(options.presses, 100) {
    app.drain()
    let start = now()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
    process.arguments = ["click", "3"]
    process.environment = server.clientEnvironment
    guard (try? ChildProcessLauncher.run(process)) != nil else { break }
    let got = app.events(waitingUpTo: 2) { $0.contains { $0.kind == .buttonPress && $0.button == 3 } }
    if got.contains(where: { $0.kind == .buttonPress && $0.button == 3 }) { xdotool.append(now() - start) }
    process.waitUntilExit()
}

func line(_ name: String, _ values: [Double]) {
    print("\(name): p50 \(ms(percentile(values, 0.5))), p99 \(ms(percentile(values, 0.99))), n=\(values.count)")
}
line("latency floor (pen button, server to window)", floor)
line("latency deep press (threshold crossed to button-3 press)", bridgeLatency)
line("latency deep press from hovering, pressed at once", fromHoverAtOnce)
line("latency deep press from hovering, pressed 20 ms after touching down", fromHoverAfter20)
line("latency xdotool click 3 (spawned)", xdotool)
// The first one runs code start-up never ran, read from the executable as it goes.
if let first = bridgeLatency.first { print("the first deep press after start-up: \(ms(first))") }
let slow = bridgeLatency.enumerated().filter { $0.element > 0.005 }
if !slow.isEmpty { print("deep presses over 5 ms: \(slow.map { "#\($0.offset) \(ms($0.element))" }.joined(separator: ", "))") }
print("deep press above the floor: p50 \(ms(percentile(bridgeLatency, 0.5) - percentile(floor, 0.5))), p99 \(ms(percentile(bridgeLatency, 0.99) - percentile(floor, 0.99)))")

// Idle.
let idleStart = ProcessSample(pid: pid)
Thread.sleep(forTimeInterval: 10)
let idleEnd = ProcessSample(pid: pid)
print("idle 10 s: \(idleEnd.switches - idleStart.switches) context switches (wakeups), \(String(format: "%.2f", idleEnd.cpuSeconds - idleStart.cpuSeconds)) s CPU")
}

// Load: 1000 Hz pen streams.
enum PenStream: CaseIterable {
    /// The pen down throughout, drawing loops with changing pressure: once past the deep
    /// press's slop, a stroke no gesture follows.
    case drawing
    /// The same loops with the tip up.
    case hovering
    /// The pen down in the knob's ring, circling once every two seconds: a stream the knob
    /// follows sample by sample, a scroll step every 15°.
    case turning

    var label: String {
        switch self {
        case .drawing: return "drawing (tip down; a drag, which no gesture follows)"
        case .hovering: return "hovering (tip up)"
        case .turning: return "turning the knob (every sample followed)"
        }
    }
}

func penStream(_ stream: PenStream, on server: HeadlessXorg, seconds: Double) throws -> (elapsed: Double, samples: Int) {
    func knobPoint(_ samples: Int) -> (Double, Double) {
        let angle = Double(samples) * .pi / 1000
        return (Double(knobCenter.x) + 75 * cos(angle), Double(knobCenter.y) + 75 * sin(angle))
    }
    let start = now()
    var samples = 0
    switch stream {
    case .drawing: try server.pen.down(at: (400, 400), pressure: 0.2)
    case .hovering: try server.pen.hover(to: (400, 400))
    case .turning: try server.pen.down(at: knobPoint(0), pressure: 0.3)
    }
    while now() - start < seconds {
        let target = start + Double(samples) / 1000
        let wait = target - now()
        if wait > 0 { usleep(useconds_t(wait * 1e6)) }
        let phase = Double(samples) / 300
        let loop = (400 + 200 * sin(phase), 400 + 150 * cos(phase / 2))
        let pressure = 0.25 + 0.15 * sin(phase * 3)
        switch stream {
        case .drawing: try server.pen.move(to: loop, pressure: pressure)
        case .hovering: try server.pen.hover(to: loop)
        case .turning: try server.pen.move(to: knobPoint(samples), pressure: pressure)
        }
        samples += 1
    }
    try server.pen.up()
    return (now() - start, samples)
}

func percent(_ cpuSeconds: Double, of elapsed: Double) -> String { String(format: "%.2f%%", 100 * cpuSeconds / elapsed) }

print("memory before the loads: bridge \(MemoryFigures(pid: pid).description)")
for stream in PenStream.allCases where options.loadOnly?.contains("\(stream)") ?? true {
    let before = ProcessSample(pid: pid)
    let load = try penStream(stream, on: server, seconds: options.loadSeconds)
    let after = ProcessSample(pid: pid)
    print("load \(Int(load.elapsed)) s at \(Int(Double(load.samples) / load.elapsed)) Hz, \(stream.label): CPU \(percent(after.cpuSeconds - before.cpuSeconds, of: load.elapsed)) of one core, \(after.switches - before.switches) context switches; private dirty \(before.memory.privateDirtyKiB) KiB before, \(after.memory.privateDirtyKiB) KiB after")
}
print("memory after the loads: bridge \(MemoryFigures(pid: pid).description); xev \(MemoryFigures(pid: xevPid).description)")
print("private dirty by mapping, after the loads: bridge \(privateDirtyByMapping(pid: pid))")
bridge.stop()

// The floor: the same stream read by a client that does nothing with it.
if options.loadOnly == nil {
let ownPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
let reader = try BridgeRun(executable: ownPath, arguments: ["--reference-reader"], server: server, stateHome: stateHome)
defer { reader.stop() }
if reader.waitUntilListening(since: now()) == nil {
    print("reference reader: did not start")
} else {
    let readerPid = reader.process.processIdentifier
    let readerBefore = ProcessSample(pid: readerPid)
    let readerLoad = try penStream(.drawing, on: server, seconds: options.loadSeconds)
    let readerAfter = ProcessSample(pid: readerPid)
    print("reference reader (poll and read each event through XCB, nothing else), the drawing stream: CPU \(percent(readerAfter.cpuSeconds - readerBefore.cpuSeconds, of: readerLoad.elapsed)) of one core, \(readerAfter.switches - readerBefore.switches) context switches")
}
}
