import Foundation
import GestureKit
import XorgTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Plays episodes, each on a fresh headless Xorg with a full-screen application window and a
/// fresh bridge running the built-in default config (from a file, so SIGHUP reloads it), and
/// judges what the window received after every step: what a person at the desk would notice.
public struct ChaosPlayer {
    /// The `gesture-bridge` executable.
    public var bridgeExecutable: String

    public init(bridgeExecutable: String) {
        self.bridgeExecutable = bridgeExecutable
    }

    public func play(_ episode: ChaosEpisode) throws -> ChaosOutcome {
        guard FileManager.default.isExecutableFile(atPath: bridgeExecutable) else {
            throw ChaosError.bridgeNotFound(bridgeExecutable)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-chaos-\(getpid())-\(episode.number)")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("config.yaml")
        try DefaultConfig.text.write(to: config, atomically: true, encoding: .utf8)

        let server = try HeadlessXorg(mouse: episode.steps.contains { $0.usesMouse })
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let bridge = try ChaosBridge(executable: bridgeExecutable, config: config, displayName: server.displayName,
                                     directory: directory)
        defer { bridge.stop() }
        let load = episode.busy ? ChaosBusyLoad() : nil
        defer { load?.stop() }

        var run = EpisodeRun(episode: episode, server: server, window: window, bridge: bridge)
        for (index, step) in episode.steps.enumerated() {
            run.step = index
            try run.play(step)
        }
        run.step = nil
        try run.finish()
        load?.stop()
        if !run.failures.isEmpty {
            // How the server's devices stand (attached, floating): what a post-mortem asks first.
            let state = (try? run.tool("/usr/bin/xinput", ["list", "--short"])) ?? ""
            run.failures[run.failures.count - 1].windowEvents.append("xinput list: \(state)")
        }
        return ChaosOutcome(episode: episode, failures: run.failures, windowLog: run.windowLog, bridgeOutput: bridge.lines,
                            bridgeLog: bridge.log, xErrors: bridge.count(.xError), mergedTaps: run.mergedTaps,
                            deferredTouchChoices: bridge.outputLines.ownerships.filter { $0.ownership == .deferred }.count,
                            lateStimulus: run.lateStimulus)
    }
}

/// One episode being played: the stage, and what was found so far.
struct EpisodeRun {
    let episode: ChaosEpisode
    let server: HeadlessXorg
    let window: RecorderWindow
    let bridge: ChaosBridge
    var step: Int?
    var failures: [ChaosFailure] = []
    /// Taps of bursts that reached the application merged with the next (`expectBurst`).
    var mergedTaps = 0
    /// Everything the window received, step by step, for the failures file.
    var windowLog: [String] = []
    /// Devices disabled and enabled in this episode: not driven again.
    var replugged: Set<ChaosDevice> = []
    /// The most the harness overslept one of its pauses in the step being played: a machine
    /// too busy to run the harness on time changes the stimulus (a deep press's samples 286 ms
    /// apart levels off at a light force: seed 168, episode 44).
    private var stepLateness = 0.0
    /// The most it overslept in a step that then failed (`lateLimit`): the stimulus was not the
    /// one planned, and the episode is played again (`ChaosOutcome.lateStimulus`).
    var lateStimulus: Double?
    /// How far past its time a pause may end and the stimulus still count as planned.
    static let lateLimit = 0.15
    private var nextTouchID: UInt32 = 0
    /// The knob's center: 150 pixels in from the right and top edges (the default config).
    var knobCenter: ChaosPoint { ChaosPoint(x: Double(server.width) - 150, y: 150) }

    init(episode: ChaosEpisode, server: HeadlessXorg, window: RecorderWindow, bridge: ChaosBridge) {
        self.episode = episode
        self.server = server
        self.window = window
        self.bridge = bridge
    }

    mutating func fail(_ problem: String, events: [RecordedEvent] = []) {
        failures.append(ChaosFailure(episode: episode, step: step, problem: problem, windowEvents: events.map(\.description)))
    }

    /// A person lays the pen aside before a finger's gesture: it leaves range, and the bridge
    /// hears no hovering sample of it for longer than `PalmRule.hoverGap` (a touch made while
    /// the pen hovers is a hand resting where it writes, with no gesture: README).
    func layPenAside() throws {
        // A pen disabled and enabled is not driven again (its link to the server is gone).
        if !replugged.contains(.pen) { try server.pen.leave() }
        _ = bridge.waitUntilAsleep(quiet: PalmRule.hoverGap + 0.05, timeout: 2)
    }

    // MARK: Steps

    /// Between two gestures a person's hand takes tens of milliseconds; the next one starts once
    /// the bridge has read the last (it sleeps), since a press the server takes before the
    /// bridge has read the lift of a stroke it kept is lost (README, known limits). Inside a
    /// step (a burst above all) there are no pauses.
    func betweenGestures() {
        bridge.waitUntilAsleep(quiet: 0.03, timeout: 2)
    }

    mutating func play(_ step: ChaosStep) throws {
        let failuresBefore = failures.count
        stepLateness = 0
        defer {
            if failures.count > failuresBefore, stepLateness > Self.lateLimit { lateStimulus = max(lateStimulus ?? 0, stepLateness) }
        }
        betweenGestures()
        if step.handsOverFromThePen(after: self.step.map { episode.steps[..<$0] } ?? []) {
            try layPenAside()
        }
        window.drain()
        let xErrorsBefore = bridge.count(.xError)
        switch step {
        case .tap(let device, let point):
            try tap(device, at: point)
            expectClicks(button: 1, count: 1)
        case .deepPress(let device, let point, let samples, let interval, let peak, let hold, let lift, let disturbance):
            try deepPress(device, at: point, samples: samples, interval: interval, peak: peak, hold: hold, lift: lift,
                          disturbance: disturbance)
            expectRightClickAlone()
        case .drag(let device, let from, let by, let steps):
            try drag(device, from: from, by: by, steps: steps)
            expectClicks(button: 1, count: 1)
        case .hold(let device, let point, let force, let duration):
            try hold(device, at: point, force: force, duration: duration)
            expectClicks(button: 1, count: 1)
        case .knob(let device, let degrees):
            try knob(device, degrees: degrees)
            expectKnob()
        case .twoFingers(let point):
            try twoFingers(at: point)
            expectNoRightClickAndBalanced()
        case .penAndTouch(let point):
            try penAndTouch(at: point)
            expectRightClickAndBalanced()
        case .palmWhilePenHovers(let point, let contacts, let lean):
            try palmWhilePenHovers(at: point, contacts: contacts, lean: lean)
            expectRightClickAndBalanced()
        case .replug(let device):
            try replug(device)
        case .replugMidPress(let device, let point, let deep):
            try replugMidPress(device, at: point, deep: deep)
            expectBalanced()
        case .burst(let device, let point, let count):
            for index in 0..<count {
                try tap(device, at: ChaosPoint(x: point.x + Double(index * 7), y: point.y))
            }
            expectBurst(count: count)
        case .mouseClicks(let count):
            for index in 1...max(1, count) {
                try mouse().click()
                // A person's pace: the next click once this one has arrived.
                _ = window.events(waitingUpTo: 2) { Self.releases(1, $0) >= index }
            }
            expectClicks(button: 1, count: count)
        case .mouseDrag(let by, let steps):
            try mouseDrag(by: by, steps: steps)
            expectClicks(button: 1, count: 1)
        case .mouseDuringPenPress(let point, let deep):
            try mouseDuringPenPress(at: point, deep: deep)
            // The mouse's click comes while the pen has button 1 down: X drops it (so it would
            // without the bridge). What the window gets is the pen's stroke alone.
            if deep { expectRightClickAlone() } else { expectClicks(button: 1, count: 1) }
        case .mouseButtonDuringPenPress(let point, let button, let deep):
            try mouseDuringPenPress(at: point, button: button, deep: deep)
            // The held pen press goes to the application at the mouse's press, as without the
            // bridge, then the mouse's click: no right-click of the bridge's, deep or not.
            expectClicksBesideHeldPress(button: button)
        }
        if let device = step.replugged { replugged.insert(device) }
        let xErrors = bridge.count(.xError) - xErrorsBefore
        if xErrors > 0 { fail("the bridge reported \(xErrors) X error\(xErrors == 1 ? "" : "s")") }
        if !bridge.isAlive { fail("the bridge exited (status \(bridge.process.terminationStatus))") }
    }

    /// After the last step: nothing held, the bridge alive and clean, and a plain tap on a
    /// device still present arrives whole.
    mutating func finish() throws {
        if let held = window.pointerState()?.buttonsHeld, !held.isEmpty {
            fail("buttons \(held) are still held down")
        }
        if let probe = ChaosDevice.allCases.first(where: { !replugged.contains($0) }) {
            betweenGestures()
            window.drain()
            try tap(probe, at: ChaosPoint(x: 640, y: 500))
            expectClicks(button: 1, count: 1, what: "the closing \(probe) tap")
        }
        let output = bridge.decodedLines
        let bugs = output.lines.ownerships.filter { $0.ownership == .bug }
        if !bugs.isEmpty { fail("the bridge reported \(bugs.count) bug line\(bugs.count == 1 ? "" : "s")") }
        if !output.unread.isEmpty { fail("the bridge printed \(output.unread.count) line(s) no output type reads: \(output.unread)") }
        if !bridge.isAlive { fail("the bridge exited (status \(bridge.process.terminationStatus))") }
    }

    // MARK: What the window must have received

    static func presses(_ button: Int32, _ events: [RecordedEvent]) -> Int {
        events.filter { $0.kind == .buttonPress && $0.detail == button }.count
    }

    static func releases(_ button: Int32, _ events: [RecordedEvent]) -> Int {
        events.filter { $0.kind == .buttonRelease && $0.detail == button }.count
    }

    /// Everything the window got from the step: waits until `isComplete` holds (or 3 s), then
    /// until a key tapped afterwards arrives, so input the server took before is in.
    mutating func windowEvents(until isComplete: @escaping ([RecordedEvent]) -> Bool) -> [RecordedEvent] {
        _ = window.events(waitingUpTo: 3, until: isComplete)
        try? server.keyboard.tap(keycode: 38)
        let events = window.events(waitingUpTo: 3) { $0.contains { $0.kind == .keyRelease && $0.detail == 38 } }
            .filter { !($0.detail == 38 && ($0.kind == .keyPress || $0.kind == .keyRelease)) }
        let place = step.map { "step \($0 + 1)" } ?? "closing"
        windowLog += events.map { "\(place): \($0)" }
        return events
    }

    mutating func expectClicks(button: Int32, count: Int, what: String = "") {
        let events = windowEvents { Self.releases(button, $0) >= count }
        let presses = Self.presses(button, events), releases = Self.releases(button, events)
        let subject = what.isEmpty ? "" : "\(what): "
        if presses != count || releases != count {
            fail("\(subject)expected \(count) click\(count == 1 ? "" : "s") of button \(button), got \(presses) press(es) and \(releases) release(s)", events: events)
        }
        if Self.presses(3, events) > 0, button != 3 { fail("\(subject)a right-click nobody asked for", events: events) }
        checkNothingHeld(events)
    }

    /// One click of the mouse's `button` and one of the pen's press, handed to the application
    /// at the mouse's press; no right-click but the mouse's own.
    mutating func expectClicksBesideHeldPress(button: Int32) {
        let events = windowEvents { Self.releases(button, $0) >= 1 && Self.releases(1, $0) >= 1 }
        for (clicked, whose) in [(button, "the mouse's button \(button)"), (1, "the pen's press, handed over")] {
            if Self.presses(clicked, events) != 1 || Self.releases(clicked, events) != 1 {
                fail("\(whose): \(Self.presses(clicked, events)) press(es) and \(Self.releases(clicked, events)) release(s), not one click", events: events)
            }
        }
        if button != 3, Self.presses(3, events) > 0 { fail("a right-click nobody asked for", events: events) }
        checkNothingHeld(events)
    }

    mutating func expectRightClickAlone() {
        let events = windowEvents { Self.releases(3, $0) >= 1 }
        if Self.presses(3, events) != 1 || Self.releases(3, events) != 1 {
            fail("the deep press gave \(Self.presses(3, events)) right press(es) and \(Self.releases(3, events)) release(s), not one right-click", events: events)
        }
        if Self.presses(1, events) > 0 { fail("the deep press also gave the application a left press", events: events) }
        checkNothingHeld(events)
    }

    /// Taps with no pause may reach the application merged (a master's button stays down while
    /// a slave has it down, and a frozen master's slave runs ahead: BurstTests), so a burst
    /// asks for whole clicks, at least one, none beyond the taps, nothing held.
    mutating func expectBurst(count: Int) {
        let events = windowEvents { Self.releases(1, $0) >= count }
        let presses = Self.presses(1, events)
        if presses < 1 || presses > count { fail("\(count) taps gave \(presses) clicks", events: events) }
        if presses < count { mergedTaps += count - presses }
        if Self.presses(3, events) > 0 { fail("a right-click nobody asked for", events: events) }
        checkBalanced(events)
    }

    mutating func expectKnob() {
        let events = windowEvents { $0.contains { $0.kind == .keyRelease && $0.keysymName == "XF86AudioRaiseVolume" } }
        if !events.contains(where: { $0.kind == .keyPress && $0.keysymName == "XF86AudioRaiseVolume" }) {
            fail("the knob turned without a volume step reaching the application", events: events)
        }
        if Self.presses(1, events) > 0 || Self.presses(3, events) > 0 {
            fail("the knob also clicked", events: events)
        }
        checkNothingHeld(events)
    }

    mutating func expectNoRightClickAndBalanced() {
        let events = windowEvents { Self.releases(1, $0) >= 1 }
        if Self.presses(3, events) > 0 { fail("a right-click nobody asked for", events: events) }
        checkBalanced(events)
    }

    mutating func expectRightClickAndBalanced() {
        let events = windowEvents { Self.releases(3, $0) >= 1 }
        if Self.presses(3, events) != 1 || Self.releases(3, events) != 1 {
            fail("the pen's deep press gave \(Self.presses(3, events)) right press(es), not one right-click", events: events)
        }
        checkBalanced(events)
    }

    mutating func expectBalanced() {
        checkBalanced(windowEvents { _ in true })
    }

    mutating func checkBalanced(_ events: [RecordedEvent]) {
        for button: Int32 in [1, 3] where Self.presses(button, events) != Self.releases(button, events) {
            fail("button \(button) pressed \(Self.presses(button, events)) time(s) but released \(Self.releases(button, events))", events: events)
        }
        checkNothingHeld(events)
    }

    mutating func checkNothingHeld(_ events: [RecordedEvent]) {
        if let held = window.pointerState()?.buttonsHeld, !held.isEmpty {
            fail("buttons \(held) are held down after the step", events: events)
        }
    }

    // MARK: Driving the devices

    mutating func touchID() -> UInt32 {
        defer { nextTouchID = (nextTouchID + 1) % 8 }
        return nextTouchID
    }

    mutating func pause(_ seconds: Double) {
        guard seconds > 0 else { return }
        let start = DispatchTime.now().uptimeNanoseconds
        usleep(UInt32(seconds * 1_000_000))
        let slept = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        stepLateness = max(stepLateness, slept - seconds)
    }

    /// Puts `device` down at `point` with `force`; returns the touch id for a touch.
    mutating func down(_ device: ChaosDevice, at point: ChaosPoint, force: Double) throws -> UInt32 {
        switch device {
        case .pen:
            try server.pen.down(at: (point.x, point.y), pressure: force)
            return 0
        case .touch:
            let id = touchID()
            try server.touch.begin(id: id, at: (point.x, point.y), pressure: force)
            return id
        }
    }

    func update(_ device: ChaosDevice, id: UInt32, to point: ChaosPoint? = nil, force: Double) throws {
        switch device {
        case .pen:
            if let point { try server.pen.move(to: (point.x, point.y), pressure: force) } else { try server.pen.press(to: force) }
        case .touch:
            try server.touch.update(id: id, to: point.map { ($0.x, $0.y) }, pressure: force)
        }
    }

    func up(_ device: ChaosDevice, id: UInt32) throws {
        switch device {
        case .pen: try server.pen.up()
        case .touch: try server.touch.end(id: id)
        }
    }

    mutating func tap(_ device: ChaosDevice, at point: ChaosPoint) throws {
        let id = try down(device, at: point, force: 0.3)
        try up(device, id: id)
    }

    mutating func deepPress(_ device: ChaosDevice, at point: ChaosPoint, samples: Int, interval: Double, peak: Double,
                            hold: Double, lift: ChaosLift, disturbance: ChaosDisturbance?) throws {
        let id = try down(device, at: point, force: 0.1)
        // The reload is checked once the press is made: waiting for its report between samples
        // held the force still for as long as a busy machine took to reload (seed 166, episode
        // 143: 237 ms at 0.32), which is a light press levelling off, not the press planned.
        var reloadsBefore: Int?
        for index in 1...max(1, samples) {
            pause(interval)
            let force = 0.1 + (peak - 0.1) * Double(index) / Double(max(1, samples))
            if disturbance == .reloadBeforeThreshold, reloadsBefore == nil, force >= 0.4 {
                reloadsBefore = startReload()
            }
            try update(device, id: id, force: force)
        }
        if disturbance == .reloadAfterThreshold { reloadsBefore = startReload() }
        pause(hold)
        if lift == .soft {
            for force in [0.6, 0.4, 0.2] {
                pause(0.01)
                try update(device, id: id, force: force)
            }
        }
        try up(device, id: id)
        if let reloadsBefore { expectReloaded(since: reloadsBefore) }
    }

    /// SIGHUP: how many reloads the bridge had reported before it.
    func startReload() -> Int {
        let before = bridge.count(.configReloaded)
        bridge.signal(SIGHUP)
        return before
    }

    /// The bridge has reported a reload since it had reported `before` (stimulus check).
    mutating func expectReloaded(since before: Int) {
        if !bridge.waitForLines(timeout: 3, until: { $0.events(.configReloaded).count > before }) {
            fail("the SIGHUP reload was not reported by the bridge")
        }
    }

    mutating func drag(_ device: ChaosDevice, from: ChaosPoint, by: ChaosPoint, steps: Int) throws {
        let id = try down(device, at: from, force: 0.3)
        for index in 1...max(1, steps) {
            pause(0.01)
            let fraction = Double(index) / Double(max(1, steps))
            try update(device, id: id, to: ChaosPoint(x: from.x + by.x * fraction, y: from.y + by.y * fraction), force: 0.3)
        }
        try up(device, id: id)
    }

    mutating func hold(_ device: ChaosDevice, at point: ChaosPoint, force: Double, duration: Double) throws {
        let id = try down(device, at: point, force: force * 0.5)
        var elapsed = 0.0
        var index = 0
        while elapsed < duration {
            pause(0.03)
            elapsed += 0.03
            index += 1
            // A living hand: the force wavers by a hundredth around its level.
            try update(device, id: id, force: force + (index % 2 == 0 ? 0.01 : -0.01))
        }
        try up(device, id: id)
    }

    mutating func knob(_ device: ChaosDevice, degrees: Double) throws {
        let center = knobCenter
        let radius = 75.0
        func point(_ degrees: Double) -> ChaosPoint {
            let radians = degrees * Double.pi / 180
            return ChaosPoint(x: (center.x + radius * cos(radians)).rounded(), y: (center.y + radius * sin(radians)).rounded())
        }
        let start = 100.0
        let id = try down(device, at: point(start), force: 0.3)
        var turned = 0.0
        while turned < degrees {
            turned = min(degrees, turned + 8)
            pause(0.01)
            try update(device, id: id, to: point(start + turned), force: 0.3)
        }
        try up(device, id: id)
    }

    mutating func twoFingers(at point: ChaosPoint) throws {
        let first = touchID(), second = touchID()
        try server.touch.begin(id: first, at: (point.x, point.y), pressure: 0.25)
        try server.touch.begin(id: second, at: (point.x + 80, point.y), pressure: 0.25)
        for index in 1...3 {
            pause(0.01)
            try server.touch.update(id: first, to: (point.x + Double(index * 5), point.y), pressure: 0.25)
            try server.touch.update(id: second, to: (point.x + 80 + Double(index * 5), point.y), pressure: 0.25)
        }
        try server.touch.end(id: first)
        try server.touch.end(id: second)
    }

    mutating func penAndTouch(at point: ChaosPoint) throws {
        try server.pen.down(at: (point.x, point.y), pressure: 0.1)
        let touch = touchID()
        for (index, force) in [0.3, 0.5, 0.7, 0.95].enumerated() {
            pause(0.01)
            try server.pen.press(to: force)
            if index == 1 { try server.touch.begin(id: touch, at: (point.x + 150, point.y), pressure: 0.3) }
        }
        try server.touch.end(id: touch)
        pause(0.05)
        try server.pen.up()
    }

    /// The pen hovers at `point`; a palm of `contacts` touches lands beside it, leaning past the
    /// threshold when `lean`, as the pen hovers on; then the pen presses deep and lifts, and the
    /// palm lifts. All within a tenth of a second or so: a palm that rests longer than the
    /// decision timeout is the application's, and the pen's press then goes with it (README).
    mutating func palmWhilePenHovers(at point: ChaosPoint, contacts: Int, lean: Bool) throws {
        let palm = (x: Swift.min(point.x + 150, Double(server.width) - 60), y: Swift.min(point.y + 100, Double(server.height) - 60))
        try server.pen.hover(to: (point.x - 10, point.y))
        var touches: [UInt32] = []
        for index in 0..<contacts {
            pause(0.01)
            try server.pen.hover(to: (point.x - 8 + Double(index) * 2, point.y))
            let touch = touchID()
            touches.append(touch)
            try server.touch.begin(id: touch, at: (palm.x - Double(index) * 40, palm.y - Double(index) * 20), pressure: 0.2)
        }
        let forces: [Double] = lean ? [0.5, 0.8, 0.95] : [0.25, 0.25]
        for (step, force) in forces.enumerated() {
            pause(0.01)
            try server.pen.hover(to: (point.x - 4 + Double(step), point.y))
            try server.touch.update(id: touches[0], pressure: force)
        }
        try server.pen.down(at: (point.x, point.y), pressure: 0.1)
        for force in [0.3, 0.6, 0.95] {
            pause(0.01)
            try server.pen.press(to: force)
        }
        pause(0.05)
        try server.pen.up()
        for touch in touches.reversed() { try server.touch.end(id: touch) }
    }

    /// The plain mouse (`play` starts the server with one for an episode with a mouse step).
    func mouse() throws -> VirtualMouse {
        guard let mouse = server.mouse else { throw ChaosError.noMouse }
        return mouse
    }

    mutating func mouseDrag(by: ChaosPoint, steps: Int) throws {
        let mouse = try mouse()
        try mouse.press()
        var moved = ChaosPoint(x: 0, y: 0)
        for index in 1...max(1, steps) {
            pause(0.01)
            let fraction = Double(index) / Double(max(1, steps))
            let next = ChaosPoint(x: (by.x * fraction).rounded(), y: (by.y * fraction).rounded())
            try mouse.move(by: next.x - moved.x, next.y - moved.y)
            moved = next
        }
        try mouse.release()
    }

    /// The pen down lightly and held back; once the bridge has read it, the mouse clicks; then
    /// the pen presses on past the threshold, or lifts.
    mutating func mouseDuringPenPress(at point: ChaosPoint, button: Int32 = 1, deep: Bool) throws {
        try server.pen.down(at: (point.x, point.y), pressure: 0.1)
        pause(0.01)
        try server.pen.press(to: 0.3)
        betweenGestures()
        try mouse().click(button: button)
        // Deep: on past the threshold, held a moment, eased back.
        for force in deep ? [0.5, 0.7, 0.95, 0.95, 0.95, 0.6, 0.4, 0.2] : [] {
            pause(0.01)
            try server.pen.press(to: force)
        }
        try server.pen.up()
    }

    /// `xinput disable` then `enable`; the bridge has seen it go and come back (stimulus check).
    mutating func replug(_ device: ChaosDevice) throws {
        let added = bridge.count(.deviceAdded), disabled = bridge.count(.deviceDisabled) + bridge.count(.deviceRemoved)
        try xinput("disable", device)
        try xinput("enable", device)
        let seen = bridge.waitForLines(timeout: 3) { lines in
            lines.events(.deviceAdded).count > added
                && lines.events(.deviceDisabled).count + lines.events(.deviceRemoved).count > disabled
        }
        if !seen { fail("the bridge did not see \(device.serverName) go and come back") }
    }

    mutating func replugMidPress(_ device: ChaosDevice, at point: ChaosPoint, deep: Bool) throws {
        let id = try down(device, at: point, force: 0.1)
        for force in deep ? [0.3, 0.6, 0.95] : [0.2, 0.3] {
            pause(0.01)
            try update(device, id: id, force: force)
        }
        try replug(device)
    }

    func xinput(_ action: String, _ device: ChaosDevice) throws {
        _ = try tool("/usr/bin/xinput", [action, device.serverName])
    }

    /// Runs an X tool on the episode's server; its standard output.
    func tool(_ path: String, _ arguments: [String]) throws -> String {
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: path)
        tool.arguments = arguments
        tool.environment = ["DISPLAY": server.displayName, "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        tool.standardOutput = output
        try tool.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        tool.waitUntilExit()
        guard tool.terminationStatus == 0 else {
            throw ChaosError.toolFailed("\(path) \(arguments.joined(separator: " ")) exited with \(tool.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
