import CX11
import Foundation
import XorgTestSupport

// The soak: `gesture-measure --soak [SECONDS]` runs the release bridge with the default config
// for SECONDS (600 unless given) of generated pen and touch gestures, each one sampled at
// 1000 Hz, and checks that every gesture's actions reach the application window, that the
// bridge's memory does not grow, and that nothing is left pressed, grabbed or frozen.

/// What the application window received, counted the way the checks need it.
struct ReceivedTally: Equatable {
    var leftPresses = 0
    var leftReleases = 0
    var rightPresses = 0
    var rightReleases = 0
    var volumeUp = 0
    var volumeDown = 0
    /// Presses of any other button or key: the soak's gestures never ask for one.
    var otherPresses = 0

    init() {}

    init(_ events: [RecordedEvent]) {
        for event in events { add(event) }
    }

    mutating func add(_ event: RecordedEvent) {
        switch (event.kind, event.detail) {
        case (.buttonPress, 1): leftPresses += 1
        case (.buttonRelease, 1): leftReleases += 1
        case (.buttonPress, 3): rightPresses += 1
        case (.buttonRelease, 3): rightReleases += 1
        case (.buttonPress, _): otherPresses += 1
        case (.keyPress, _):
            switch event.keysymName {
            case "XF86AudioRaiseVolume": volumeUp += 1
            case "XF86AudioLowerVolume": volumeDown += 1
            default: otherPresses += 1
            }
        default: break
        }
    }

    static func + (lhs: ReceivedTally, rhs: ReceivedTally) -> ReceivedTally {
        var sum = lhs
        sum.leftPresses += rhs.leftPresses
        sum.leftReleases += rhs.leftReleases
        sum.rightPresses += rhs.rightPresses
        sum.rightReleases += rhs.rightReleases
        sum.volumeUp += rhs.volumeUp
        sum.volumeDown += rhs.volumeDown
        sum.otherPresses += rhs.otherPresses
        return sum
    }

    var description: String {
        "left \(leftPresses)/\(leftReleases), right \(rightPresses)/\(rightReleases), "
            + "volume up \(volumeUp), down \(volumeDown), other presses \(otherPresses)"
    }
}

/// What one gesture must make the window receive. Ranges are for what the bridge does not
/// decide: a touchscreen's own emulated left button during a touch gesture the bridge claims.
struct ExpectedTally {
    var leftPresses: ClosedRange<Int> = 0...0
    var leftReleases: ClosedRange<Int> = 0...0
    var rightClicks = 0
    var volumeUp = 0
    var volumeDown = 0

    static func + (lhs: ExpectedTally, rhs: ExpectedTally) -> ExpectedTally {
        ExpectedTally(
            leftPresses: (lhs.leftPresses.lowerBound + rhs.leftPresses.lowerBound)...(lhs.leftPresses.upperBound + rhs.leftPresses.upperBound),
            leftReleases: (lhs.leftReleases.lowerBound + rhs.leftReleases.lowerBound)...(lhs.leftReleases.upperBound + rhs.leftReleases.upperBound),
            rightClicks: lhs.rightClicks + rhs.rightClicks,
            volumeUp: lhs.volumeUp + rhs.volumeUp,
            volumeDown: lhs.volumeDown + rhs.volumeDown)
    }

    /// Everything the gesture must bring has arrived (more may still come).
    func isReached(by tally: ReceivedTally) -> Bool {
        tally.leftPresses >= leftPresses.lowerBound && tally.leftReleases >= leftReleases.lowerBound
            && tally.rightPresses >= rightClicks && tally.rightReleases >= rightClicks
            && tally.volumeUp >= volumeUp && tally.volumeDown >= volumeDown
    }

    /// What differs between `tally` and this expectation; empty when it matches.
    func mismatches(_ tally: ReceivedTally) -> [String] {
        var problems: [String] = []
        func check(_ name: String, _ got: Int, _ range: ClosedRange<Int>) {
            guard !range.contains(got) else { return }
            let wanted = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)...\(range.upperBound)"
            problems.append("\(name) \(got) (expected \(wanted))")
        }
        check("left presses", tally.leftPresses, leftPresses)
        check("left releases", tally.leftReleases, leftReleases)
        check("right presses", tally.rightPresses, rightClicks...rightClicks)
        check("right releases", tally.rightReleases, rightClicks...rightClicks)
        check("volume up", tally.volumeUp, volumeUp...volumeUp)
        check("volume down", tally.volumeDown, volumeDown...volumeDown)
        check("other presses", tally.otherPresses, 0...0)
        return problems
    }

    var description: String {
        func text(_ range: ClosedRange<Int>) -> String {
            range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)-\(range.upperBound)"
        }
        return "left \(text(leftPresses))/\(text(leftReleases)), right \(rightClicks)/\(rightClicks), "
            + "volume up \(volumeUp), down \(volumeDown), other presses 0"
    }
}

/// The gestures the soak makes, one after another, against the default config.
enum SoakGesture: String, CaseIterable {
    case penDeepPress = "pen deep press"
    case penTap = "pen light tap"
    case penDrag = "pen drag"
    case penKnob = "pen knob circle"
    case touchDeepPress = "touch deep press"
    case touchTap = "touch light tap"
    case touchDrag = "touch drag"
    case touchKnob = "touch knob circle"

    /// Degrees turned clockwise, then back: 97.5° at 15° a step past the 30° activation is six
    /// steps up with 7.5° carried; 60° back is three steps down. Half-step margins keep sampling
    /// and rounding away from a step's edge.
    static let knobForward = 97.5
    static let knobBack = 60.0

    var expected: ExpectedTally {
        switch self {
        case .penTap, .penDrag, .touchTap, .touchDrag:
            return ExpectedTally(leftPresses: 1...1, leftReleases: 1...1)
        case .penDeepPress:
            // The press is kept for the gesture: the window sees the right-click and no left
            // press. The right-click goes out with the bridge's grab let go, and the lift can
            // then reach the window as a lone left release (the summary counts them).
            return ExpectedTally(leftPresses: 0...0, leftReleases: 0...1, rightClicks: 1)
        case .touchDeepPress:
            // The server emulates a left button from the touch for a window that does not
            // select touch events; whether the bridge holds that back is not what this counts.
            return ExpectedTally(leftPresses: 0...1, leftReleases: 0...1, rightClicks: 1)
        case .penKnob:
            // A lift while a key goes out (the grab is let go for it) may reach the window as a
            // lone release; it leaves nothing pressed.
            return ExpectedTally(leftPresses: 0...0, leftReleases: 0...1, volumeUp: 6, volumeDown: 3)
        case .touchKnob:
            return ExpectedTally(leftPresses: 0...1, leftReleases: 0...1, volumeUp: 6, volumeDown: 3)
        }
    }
}

/// A small deterministic generator, so a soak can be run again the same way.
struct SoakRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }

    mutating func between(_ low: Double, _ high: Double) -> Double { low + (high - low) * next() }
}

/// Paces samples at 1000 Hz: each waits for its millisecond, and a stall does not make the
/// samples after it burst to catch up.
struct SamplePacer {
    private var next = now()

    mutating func wait() {
        next += 0.001
        let wait = next - now()
        if wait > 0 {
            usleep(useconds_t(wait * 1e6))
        } else if wait < -0.02 {
            next = now()
        }
    }
}

/// Which virtual device a gesture of the soak is made with.
enum SoakTool { case pen, touch }

/// Drives the virtual pen and touchscreen through the gestures, one sample a millisecond.
struct GestureScript {
    let server: HeadlessXorg
    var random = SoakRandom(seed: 0x5eed)
    var pacer = SamplePacer()
    private(set) var samples = 0

    init(server: HeadlessXorg) { self.server = server }

    /// The knob ring of the default config: 30...120 px around the point 150 px in from the right
    /// and top edges; the soak circles at 75 px.
    var knobCenter: PixelPoint { (Double(server.width) - 150, 150) }

    /// A place for a gesture that is not a knob: well away from the ring and the edges.
    mutating func freePoint(margin: Double = 40) -> PixelPoint {
        while true {
            let point = (x: random.between(margin, Double(server.width) - margin),
                         y: random.between(margin, Double(server.height) - margin))
            let dx = point.x - knobCenter.x
            let dy = point.y - knobCenter.y
            if (dx * dx + dy * dy).squareRoot() > 120 + 60 + margin { return point }
        }
    }

    mutating func perform(_ gesture: SoakGesture) throws {
        switch gesture {
        case .penTap: try tap(.pen)
        case .penDeepPress: try deepPress(.pen)
        case .penDrag: try drag(.pen)
        case .penKnob: try knob(.pen)
        case .touchTap: try tap(.touch)
        case .touchDeepPress: try deepPress(.touch)
        case .touchDrag: try drag(.touch)
        case .touchKnob: try knob(.touch)
        }
    }

    private mutating func tick() {
        pacer.wait()
        samples += 1
    }

    private mutating func tap(_ tool: SoakTool) throws {
        let point = freePoint()
        let held = (0..<40).map { index in (point, 0.3 + 0.02 * sin(Double(index) / 6)) }
        try stroke(tool, down: (point, 0.3), then: held)
    }

    private mutating func deepPress(_ tool: SoakTool) throws {
        let point = freePoint()
        var pressed: [(PixelPoint, Double)] = []
        for pressure in Self.pressureProfile(peak: 0.9) {
            // A hand is never quite still: a pixel or two, well inside the 12 px slop.
            pressed.append(((point.x + random.between(-2, 2), point.y + random.between(-2, 2)), pressure))
        }
        try stroke(tool, down: (point, 0.1), then: pressed)
    }

    private mutating func drag(_ tool: SoakTool) throws {
        let start = freePoint(margin: 200)
        let angle = random.between(0, 2 * .pi)
        let line: [(PixelPoint, Double)] = (1...150).map { index in
            let distance = 1.2 * Double(index)
            // The pen's pressure wavers along the line; the touchscreen's stays put.
            let pressure = tool == .pen ? 0.3 + 0.05 * sin(Double(index) / 20) : 0.3
            return ((start.x + distance * cos(angle), start.y + distance * sin(angle)), pressure)
        }
        try stroke(tool, down: (start, 0.3), then: line)
    }

    private mutating func knob(_ tool: SoakTool) throws {
        let path = knobPath()
        try stroke(tool, down: (path[0], 0.25), then: path.dropFirst().map { ($0, 0.25) })
    }

    /// Puts `tool` down, moves it through `moves`, and lifts it: one sample a millisecond.
    private mutating func stroke(_ tool: SoakTool, down: (PixelPoint, Double), then moves: [(PixelPoint, Double)]) throws {
        tick()
        switch tool {
        case .pen: try server.pen.down(at: down.0, pressure: down.1)
        case .touch: try server.touch.begin(at: down.0, pressure: down.1)
        }
        for (point, pressure) in moves {
            tick()
            switch tool {
            case .pen: try server.pen.move(to: point, pressure: pressure)
            case .touch: try server.touch.update(to: point, pressure: pressure)
            }
        }
        tick()
        switch tool {
        case .pen: try server.pen.up()
        case .touch: try server.touch.end()
        }
    }

    /// Up from light to `peak` in 80 ms, held 60 ms, down to light in 40 ms.
    private static func pressureProfile(peak: Double) -> [Double] {
        (0..<80).map { 0.1 + (peak - 0.1) * Double($0 + 1) / 80 }
            + Array(repeating: peak, count: 60)
            + (0..<40).map { peak - (peak - 0.2) * Double($0 + 1) / 40 }
    }

    /// Around the knob at 75 px, half a degree a sample: forward, then back.
    private mutating func knobPath() -> [PixelPoint] {
        let start = random.between(0, 60)
        let forward = SoakGesture.knobForward
        let back = SoakGesture.knobBack
        let degrees = stride(from: 0, through: forward, by: 0.5).map { start + $0 }
            + stride(from: 0.5, through: back, by: 0.5).map { start + forward - $0 }
        return degrees.map { degree in
            let radians = degree * .pi / 180
            return (knobCenter.x + 75 * cos(radians), knobCenter.y + 75 * sin(radians))
        }
    }
}

/// The bridge as a new user runs it: `gesture-bridge run` with the built-in default config (an
/// empty config directory, so no user file is picked up) and nothing learned yet (a state
/// directory of its own, so what it learns stays out of the user's), its log in a file.
final class SoakBridge {
    let process = Process()
    let logURL: URL
    private let configHome: URL

    init(bridge: String, server: HeadlessXorg) throws {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gesture-soak-\(getpid())")
        configHome = base.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: configHome, withIntermediateDirectories: true)
        logURL = base.appendingPathComponent("bridge.log")
        guard FileManager.default.createFile(atPath: logURL.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: logURL.path])
        }
        var environment = server.clientEnvironment
        environment["XDG_CONFIG_HOME"] = configHome.path
        environment["XDG_STATE_HOME"] = base.appendingPathComponent("state").path
        process.executableURL = URL(fileURLWithPath: bridge)
        process.arguments = ["run"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: logURL)
        try ChildProcessLauncher.run(process)
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    func waitUntilListening() -> Bool {
        let start = now()
        while now() - start < 10, process.isRunning {
            if log.contains("listening to") { return true }
            usleep(10_000)
        }
        return false
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: configHome.deletingLastPathComponent())
    }
}

/// After the soak, asked on a connection of its own: what a next application would find.
struct ServerLeftovers {
    var coreButtons: [Int] = []
    var masterButtons: [Int] = []
    var keysDown: [Int] = []
    var pointerGrab: String?
    var keyboardGrab: String?

    init(displayName: String) {
        guard let display = XOpenDisplay(displayName) else {
            pointerGrab = "cannot open \(displayName)"
            return
        }
        defer { XCloseDisplay(display) }
        if let core = CorePointerState.query(display) {
            coreButtons = core.buttonsHeld
        }
        let root = XDefaultRootWindow(display)
        var rootReturn: UInt = 0
        var child: UInt = 0
        // The master pointer (2) as XInput2 sees it: every button, not only the first five.
        var x = 0.0, y = 0.0, wx = 0.0, wy = 0.0
        var buttons = XIButtonState()
        var modifiers = XIModifierState()
        var group = XIGroupState()
        if XIQueryPointer(display, 2, root, &rootReturn, &child, &x, &y, &wx, &wy, &buttons, &modifiers, &group) != 0,
           let bits = buttons.mask {
            masterButtons = (1..<(Int(buttons.mask_len) * 8)).filter { bits[$0 / 8] & (1 << UInt8($0 % 8)) != 0 }
            XFree(bits)
        }
        var keymap = [CChar](repeating: 0, count: 32)
        XQueryKeymap(display, &keymap)
        keysDown = (8..<256).filter { UInt8(bitPattern: keymap[$0 / 8]) & (1 << UInt8($0 % 8)) != 0 }
        let pointer = XGrabPointer(display, root, 0, UInt32(ButtonPressMask), GrabModeAsync, GrabModeAsync, 0, 0, UInt(CurrentTime))
        if pointer == GrabSuccess { XUngrabPointer(display, UInt(CurrentTime)) } else { pointerGrab = Self.grabStatus(pointer) }
        let keyboard = XGrabKeyboard(display, root, 0, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
        if keyboard == GrabSuccess { XUngrabKeyboard(display, UInt(CurrentTime)) } else { keyboardGrab = Self.grabStatus(keyboard) }
        XSync(display, 0)
    }

    private static func grabStatus(_ status: Int32) -> String {
        switch status {
        case AlreadyGrabbed: "AlreadyGrabbed (another client holds a grab)"
        case GrabFrozen: "GrabFrozen (the device is frozen by another grab)"
        case GrabNotViewable: "GrabNotViewable"
        case GrabInvalidTime: "GrabInvalidTime"
        default: "status \(status)"
        }
    }
}

enum Soak {
    /// - Parameter gap: the pause between one gesture's end and the next one's start. A person
    ///   needs tens of milliseconds to lift and touch again; 0 sends the next gesture at once.
    static func run(seconds: Double, gap: Double, bridgePath: String) throws -> Int32 {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let app = try RecorderWindow(server: server, wmClass: ("soak", "Soak"))
        defer { app.close() }
        let bridge = try SoakBridge(bridge: bridgePath, server: server)
        defer { bridge.stop() }
        guard bridge.waitUntilListening() else {
            print("FAIL: the bridge did not start listening:\n\(bridge.log)")
            return 1
        }
        let pid = bridge.process.processIdentifier
        print("soak: \(Int(seconds)) s of pen and touch gestures at 1000 Hz, \(Int(gap * 1000)) ms apart, default config; bridge \(bridgePath) (pid \(pid))")

        var script = GestureScript(server: server)
        var failures: [String] = []
        var mismatchedGestures: [String] = []
        var expectedTotal = ExpectedTally()
        var receivedTotal = ReceivedTally()
        var counts: [SoakGesture: Int] = [:]
        var order = SoakGesture.allCases
        let warmUp = min(20, seconds / 10)
        var startSample: ProcessSample?
        var privateDirtySeries: [(Double, Int)] = []
        var nextMemorySample = 0.0
        let start = now()
        var gestures = 0

        var previous: SoakGesture?
        func settle(_ gesture: SoakGesture, index: Int) {
            defer { previous = gesture }
            let expected = gesture.expected
            // The record is not cleared by waiting: the drain returns it with anything after it.
            _ = app.events(waitingUpTo: 2) { expected.isReached(by: ReceivedTally($0)) }
            let tally = ReceivedTally(app.drain())
            expectedTotal = expectedTotal + expected
            receivedTotal = receivedTotal + tally
            let problems = expected.mismatches(tally)
            if !problems.isEmpty {
                let after = previous.map { " (after a \($0.rawValue))" } ?? ""
                mismatchedGestures.append("#\(index) \(gesture.rawValue)\(after) at \(String(format: "%.1f", now() - start)) s: \(problems.joined(separator: ", "))")
            }
        }

        while now() - start < seconds {
            // A fresh order each round, from the script's own generator.
            for index in order.indices.reversed() {
                order.swapAt(index, Int(script.random.next() * Double(index + 1)))
            }
            for gesture in order {
                if gap > 0 { usleep(useconds_t(gap * 1e6)) }
                try script.perform(gesture)
                settle(gesture, index: gestures)
                gestures += 1
                counts[gesture, default: 0] += 1
            }
            let elapsed = now() - start
            if startSample == nil, elapsed >= warmUp {
                startSample = ProcessSample(pid: pid)
                nextMemorySample = elapsed
            }
            if startSample != nil, elapsed >= nextMemorySample {
                privateDirtySeries.append((elapsed, ProcessSample(pid: pid).memory.privateDirtyKiB))
                nextMemorySample += 60
            }
            guard bridge.process.isRunning else {
                failures.append("the bridge exited during the soak (status \(bridge.process.terminationStatus))")
                break
            }
        }
        let elapsed = now() - start
        // Anything still on its way arrives before the totals are taken.
        usleep(300_000)
        receivedTotal = receivedTotal + ReceivedTally(app.drain())
        let endSample = ProcessSample(pid: pid)
        let first = startSample ?? endSample

        print("ran \(String(format: "%.1f", elapsed)) s: \(gestures) gestures, \(script.samples) input samples (\(Int(Double(script.samples) / elapsed)) a second overall)")
        print("  " + SoakGesture.allCases.map { "\($0.rawValue) \(counts[$0, default: 0])" }.joined(separator: ", "))
        print("window expected: \(expectedTotal.description)")
        print("window received: \(receivedTotal.description)")
        let totalProblems = expectedTotal.mismatches(receivedTotal)
        if !totalProblems.isEmpty { failures.append("totals differ: \(totalProblems.joined(separator: ", "))") }
        if receivedTotal.leftReleases > receivedTotal.leftPresses {
            print("lone left releases (a lift reaching the window after a pen gesture kept the press): \(receivedTotal.leftReleases - receivedTotal.leftPresses)")
        }
        if !mismatchedGestures.isEmpty {
            failures.append("\(mismatchedGestures.count) gestures did not bring exactly their actions")
            for line in mismatchedGestures.prefix(60) { print("  \(line)") }
            if mismatchedGestures.count > 60 { print("  … and \(mismatchedGestures.count - 60) more") }
        }

        let growth = endSample.memory.privateDirtyKiB - first.memory.privateDirtyKiB
        print("bridge private dirty memory: \(first.memory.privateDirtyKiB) KiB after \(Int(warmUp)) s warm-up, \(endSample.memory.privateDirtyKiB) KiB at the end: growth \(growth) KiB (goal < 1024); Pss at the end \(endSample.memory.pssKiB) KiB")
        print("  private dirty over time: " + privateDirtySeries.map { "\(Int($0.0)) s \($0.1)" }.joined(separator: ", ") + ", end \(endSample.memory.privateDirtyKiB) KiB")
        if growth >= 1024 { failures.append("private dirty memory grew \(growth) KiB") }
        let cpu = endSample.cpuSeconds - first.cpuSeconds
        print("bridge CPU after warm-up: \(String(format: "%.1f", cpu)) s in \(String(format: "%.0f", elapsed - warmUp)) s (\(String(format: "%.2f", 100 * cpu / max(1, elapsed - warmUp)))% of one core)")

        // Nothing pressed, nothing grabbed, nothing frozen.
        let leftovers = ServerLeftovers(displayName: server.displayName)
        print("after the soak: core buttons down \(leftovers.coreButtons), XI2 master buttons down \(leftovers.masterButtons), keys down \(leftovers.keysDown)")
        if !leftovers.coreButtons.isEmpty || !leftovers.masterButtons.isEmpty { failures.append("buttons left pressed") }
        if !leftovers.keysDown.isEmpty { failures.append("keys left pressed: \(leftovers.keysDown)") }
        print("another client's XGrabPointer: \(leftovers.pointerGrab ?? "succeeds"); XGrabKeyboard: \(leftovers.keyboardGrab ?? "succeeds")")
        if let grab = leftovers.pointerGrab { failures.append("pointer grab fails: \(grab)") }
        if let grab = leftovers.keyboardGrab { failures.append("keyboard grab fails: \(grab)") }
        for (name, gesture) in [("pen", SoakGesture.penTap), ("touch", SoakGesture.touchTap)] {
            app.drain()
            try script.perform(gesture)
            _ = app.events(waitingUpTo: 2) { gesture.expected.isReached(by: ReceivedTally($0)) }
            let tally = ReceivedTally(app.drain())
            let problems = gesture.expected.mismatches(tally)
            print("final \(name) light tap: \(problems.isEmpty ? "one left click arrives" : problems.joined(separator: ", "))")
            if !problems.isEmpty { failures.append("final \(name) tap: \(problems.joined(separator: ", "))") }
        }

        let logLines = bridge.log.split(separator: "\n")
        let complaints = logLines.filter { $0.contains(" warning ") || $0.contains(" error ") || $0.contains(" critical ") }
        print("bridge log: \(logLines.count) lines, \(complaints.count) warnings or errors")
        for line in complaints.prefix(5) { print("  \(line)") }
        if !bridge.process.isRunning { failures.append("the bridge is not running at the end") }

        if failures.isEmpty {
            print("soak: PASS")
            return 0
        }
        print("soak: FAIL")
        for failure in failures { print("  - \(failure)") }
        return 1
    }
}
