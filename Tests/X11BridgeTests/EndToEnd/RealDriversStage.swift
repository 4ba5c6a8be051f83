import Foundation
import GestureKit
import Glibc
import Testing
import XorgTestSupport

/// A real-driver Xorg (`RealDriverXorg`) with a full-screen window recording what an
/// application receives: the stage of the real-driver tests. Each test starts its own and
/// stops it with `defer`, pass or fail.
final class RealDriverStage {
    let server: RealDriverXorg
    let window: RecorderWindow

    var pen: RealDriverPen { server.pen }

    /// `windowDevices`: which devices the window selects its events for (`RecorderWindow.Devices`).
    init(_ driver: RealDriver, touchPressure: Bool = true, touchAware: Bool = false,
         windowDevices: RecorderWindow.Devices = .masters) throws {
        server = try RealDriverXorg(driver: driver, touchPressure: touchPressure)
        do {
            window = try RecorderWindow(server: server, touchAware: touchAware, devices: windowDevices)
        } catch {
            server.stop()
            throw error
        }
    }

    /// The touchscreen; a failure for a driver set up without one.
    func touch(sourceLocation: SourceLocation = #_sourceLocation) throws -> RealDriverTouchscreen {
        try #require(server.touch, "the \(server.driver) server has no touchscreen", sourceLocation: sourceLocation)
    }

    func stop() {
        window.close()
        server.stop()
    }

    /// `gesture-bridge run --json` with `options` (the built-in default config unless `config`).
    func bridge(_ options: [String] = [], config: String? = nil) throws -> BridgeProcess {
        let configOptions = try config.map { ["--config", try temporaryConfig($0)] } ?? []
        return try BridgeProcess(["run", "--json"] + options + configOptions, displayName: server.displayName)
    }

    /// A person lays the pen aside before a finger's gesture: it leaves range, and the bridge
    /// has heard no hovering sample of it for longer than `PalmRule.hoverGap` (a touch made
    /// while the pen hovers is a hand resting where it writes, with no gesture).
    func layPenAside(_ bridge: BridgeProcess, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try pen.leave()
        #expect(try bridge.waitUntilAsleep(quiet: PalmRule.hoverGap + 0.05), sourceLocation: sourceLocation)
    }

    /// A command that answers and exits (`devices --json`, `doctor`): its exit status and output.
    func command(_ arguments: [String]) throws -> (status: Int32?, output: String) {
        let run = try BridgeProcess(arguments, displayName: server.displayName, ready: .immediately)
        let status = run.child.waitForExit(timeout: 10)
        return (status, run.child.output)
    }

    /// `doctor --json`: its exit status and findings.
    func doctor(sourceLocation: SourceLocation = #_sourceLocation) throws -> (status: Int32?, findings: [DoctorFindingLine]) {
        let (status, output) = try command(["doctor", "--json"])
        return (status, try output.split(separator: "\n").map { try JSONDecoder().decode(DoctorFindingLine.self, from: Data($0.utf8)) })
    }

    /// `devices --json`: each device's line, by name.
    func listedDevices(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: DeviceLine] {
        let (status, output) = try command(["devices", "--json"])
        #expect(status == 0, "devices --json: \(output)", sourceLocation: sourceLocation)
        let devices = try output.split(separator: "\n").map { try JSONDecoder().decode(DeviceLine.self, from: Data($0.utf8)) }
        return Dictionary(devices.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The id the server gave the device named `name` (XIQueryDevice through xinput).
    func serverDeviceID(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int32 {
        let xinput = try ChildProcess(executable: "/usr/bin/xinput", arguments: ["list", "--id-only", name],
                                      environment: BridgeProcess.environment(server.displayName))
        #expect(xinput.waitForExit(timeout: 5) == 0, "xinput list --id-only \(name)", sourceLocation: sourceLocation)
        return try #require(Int32(xinput.output.trimmingCharacters(in: .whitespacesAndNewlines)),
                            "no device \(name) on the server: \(xinput.output)\(xinput.errorOutput)",
                            sourceLocation: sourceLocation)
    }
}

/// Things every real-driver suite checks the same way.
enum RealDriverChecks {
    /// The pressure range `devices --json` gives a device, as (min, max).
    static func pressureRange(_ device: DeviceLine?) -> (min: Double, max: Double)? {
        device?.pressure.map { ($0.min, $0.max) }
    }

    /// `doctor` exits 0 and names each device in `pressures` with its driver and pressure range
    /// ("0..65536"): the values, not the sentence around them, are what is checked.
    static func expectDoctor(_ stage: RealDriverStage, pressures: [String: String], driver: RealDriver,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (status, findings) = try stage.doctor()
        #expect(status == 0, "\(findings)", sourceLocation: sourceLocation)
        for (name, range) in pressures {
            let line = findings.first { $0.check == .pressure && $0.device == name }?.message ?? ""
            #expect(line.contains(range) && line.contains(driver.rawValue), "doctor on \(name): \(findings)",
                    sourceLocation: sourceLocation)
        }
    }

    /// A deep press with the pen at `point`: down light, the force rising in paced samples to
    /// 0.95, lifted once the right-click has reached the window. Returns every event the window
    /// got, after checking it is one right-click and no left press.
    @discardableResult
    static func expectPenDeepPress(_ stage: RealDriverStage, _ bridge: BridgeProcess, at point: PixelPoint, holding hold: Double = 0,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws -> [RecordedEvent] {
        stage.window.drain()
        try stage.pen.hover(to: point)
        try stage.pen.down(at: point, pressure: 0.1)
        for force in [0.2, 0.35, 0.5, 0.65, 0.8, 0.95] {
            usleep(15_000)
            try stage.pen.press(to: force)
        }
        #expect(stage.window.waitForEvents(upTo: 4) { buttonEvents(3, in: $0).count >= 2 })
        if hold > 0 { usleep(useconds_t(hold * 1_000_000)) }
        try stage.pen.up()
        try stage.pen.leave()
        let all = stage.window.drain()
        #expect(buttonEvents(3, in: all).map(\.kind) == [.buttonPress, .buttonRelease], "\(all)\n\(bridge.log)",
                sourceLocation: sourceLocation)
        #expect(buttonEvents(1, in: all).isEmpty, "no left press: \(all)", sourceLocation: sourceLocation)
        let state = stage.window.pointerState()
        #expect(state?.buttonsHeld == [], "\(state == nil ? "window connected: \(stage.window.isConnected)\n" + stage.server.logTail() : "")\n\(bridge.log)",
                sourceLocation: sourceLocation)
        return all
    }

    /// A still touch held past the default config's long press (0.6 s) at `point`, lifted once
    /// the right-click has reached the window: one right-click and no left press.
    static func expectTouchLongPress(_ stage: RealDriverStage, _ bridge: BridgeProcess, at point: PixelPoint,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let touch = try stage.touch(sourceLocation: sourceLocation)
        stage.window.drain()
        try touch.begin(at: point, pressure: 0.3)
        #expect(stage.window.waitForEvents(upTo: 3) { buttonEvents(3, in: $0).count >= 2 })
        try touch.end()
        // The lift reaches the window (as an emulated release, were the touch handed over).
        let all = stage.window.events(arrivingWithin: 0.3)
        stage.window.drain()
        #expect(buttonEvents(3, in: all).map(\.kind) == [.buttonPress, .buttonRelease], "\(all)\n\(bridge.log)",
                sourceLocation: sourceLocation)
        #expect(buttonEvents(1, in: all).isEmpty, "no left press: \(all)\n\(bridge.lines)", sourceLocation: sourceLocation)
        #expect(stage.window.pointerState()?.buttonsHeld == [], sourceLocation: sourceLocation)
    }

    /// The default config's volume knob turned clockwise with the pen: the volume-up key, and only it.
    static func expectKnobTurns(_ stage: RealDriverStage, _ bridge: BridgeProcess,
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let center: PixelPoint = (Double(stage.server.width) - 150, 150)
        let path = KnobPath.points(center: center, radius: 75, fromDegrees: 0, toDegrees: 95)
        try stage.pen.hover(to: path[0])
        try stage.pen.down(at: path[0], pressure: 0.2)
        // The pen rests a moment at the end, as a hand does: wacom smooths positions over samples.
        for point in path.dropFirst() + Array(repeating: path[path.count - 1], count: 4) { try stage.pen.move(to: point) }
        try stage.pen.up()
        try stage.pen.leave()
        func keys(_ events: [RecordedEvent]) -> [String] { events.filter { $0.kind == .keyPress }.compactMap(\.keysymName) }
        // 95° turned past the 30° that enters the knob, 15° a step: six steps up.
        let pressed = keys(stage.window.events(waitingUpTo: 3) { keys($0).count >= 6 })
        #expect(pressed == Array(repeating: "XF86AudioRaiseVolume", count: 6), "\(bridge.lines)", sourceLocation: sourceLocation)
    }

    /// A tap, a drag and a light press held still reach the window as the pen's own events
    /// (source: the pen's device), button 1 pressed and released, pressure included; no right-click.
    static func expectPenInputIsItsOwn(_ stage: RealDriverStage, _ bridge: BridgeProcess, penName: String,
                                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let pen = try stage.serverDeviceID(penName, sourceLocation: sourceLocation)
        func fromPen(_ events: [RecordedEvent]) -> [RecordedEvent] { events.filter { $0.sourceID == pen } }

        // A tap.
        stage.window.drain()
        try stage.pen.hover(to: (300, 300))
        try stage.pen.down(at: (300, 300), pressure: 0.4)
        usleep(30_000)
        try stage.pen.up()
        var events = stage.window.events(waitingUpTo: 3) { buttonEvents(1, in: $0).count >= 2 }
        #expect(buttonEvents(1, in: fromPen(events)).map(\.kind) == [.buttonPress, .buttonRelease], "tap: \(events)\n\(bridge.lines)",
                sourceLocation: sourceLocation)
        #expect(buttonEvents(3, in: events).isEmpty, "tap: \(events)", sourceLocation: sourceLocation)

        // A drag: handed over once it has moved past 12 px, the motion following from the pen.
        stage.window.drain()
        try stage.pen.down(at: (300, 400), pressure: 0.4)
        for step in 1...10 { try stage.pen.move(to: (300 + Double(step) * 10, 400)) }
        events = stage.window.events(waitingUpTo: 3) { buttonEvents(1, in: $0).count >= 1 }
        #expect(buttonEvents(1, in: fromPen(events)).first?.kind == .buttonPress, "drag, before the lift: \(events)\n\(bridge.lines)",
                sourceLocation: sourceLocation)
        try stage.pen.up()
        events = stage.window.events(waitingUpTo: 3) { buttonEvents(1, in: $0).count >= 2 }
        // A driver sends the valuators that changed: the pressure wherever it is sent, above 0
        // on the way (the lift's frame, the last, brings it to 0 before the release).
        let moves = fromPen(events).filter { $0.kind == .motion && $0.buttonsHeld.contains(1) }
        #expect(moves.contains { $0.rootX >= 390 } && moves.contains { $0.pressure != nil }
                    && moves.dropLast().allSatisfy { ($0.pressure ?? 1) > 0 },
                "the drag's motion, with its pressure: \(events)", sourceLocation: sourceLocation)
        #expect(buttonEvents(1, in: fromPen(events)).map(\.kind) == [.buttonPress, .buttonRelease], "drag: \(events)",
                sourceLocation: sourceLocation)

        // A light press held still: handed over while the tip is still down, once its force settles.
        stage.window.drain()
        try stage.pen.down(at: (500, 500), pressure: 0.25)
        let start = Date()
        var pressedWhileDown: [RecordedEvent] = []
        while Date().timeIntervalSince(start) < 1.5, pressedWhileDown.isEmpty {
            usleep(20_000)
            try stage.pen.press(to: 0.25 + (stage.pen.pressure > 0.25 ? -0.002 : 0.002))
            pressedWhileDown = buttonEvents(1, in: fromPen(stage.window.events(waitingUpTo: 0.01) { _ in false }))
        }
        #expect(pressedWhileDown.first?.kind == .buttonPress, "a light held press reaches the window before the lift: \(bridge.lines)",
                sourceLocation: sourceLocation)
        try stage.pen.press(to: 0.26)
        try stage.pen.up()
        try stage.pen.leave()
        events = stage.window.events(waitingUpTo: 3) { buttonEvents(1, in: $0).count >= 2 }
        let held = fromPen(events).drop { $0.kind != .buttonPress }.prefix { $0.kind != .buttonRelease }
        #expect(held.contains { ($0.pressure ?? 0) > 0 }, "the held press's pressure reaches the window: \(events)",
                sourceLocation: sourceLocation)
        #expect(buttonEvents(1, in: fromPen(events)).map(\.kind) == [.buttonPress, .buttonRelease], "held press: \(events)",
                sourceLocation: sourceLocation)
        #expect(buttonEvents(3, in: events).isEmpty && stage.window.pointerState()?.buttonsHeld == [], "\(events)",
                sourceLocation: sourceLocation)
    }

    /// No X error and nothing the ownership found impossible.
    static func expectNoFault(_ bridge: BridgeProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(bridge.events(.xError).isEmpty, "\(bridge.lines)", sourceLocation: sourceLocation)
        #expect(bridge.ownerships.filter { $0.ownership == .bug }.isEmpty, "\(bridge.lines)",
                sourceLocation: sourceLocation)
    }
}
