import CX11
import Foundation
import GestureKit
import Testing
import XorgTestSupport
@testable import X11Bridge

@Suite("A knob bound to volume turns a real sound server's volume and shows the level", .requiresXorg,
       .requiresSoundServer, .serialized)
final class VolumeKnobTests: ServerSuite {
    static let center = Point(x: 640, y: 400)
    static let config = penKnobConfig("volume", clockwise: "{volume: +5%}", counterclockwise: "{volume: -5%}")

    /// Waits until `read` gives `percent`; returns the last reading.
    static func waitForVolume(_ percent: Int, timeout: Double = 5, read: () throws -> Int) throws -> Int {
        try poll(timeout: timeout, every: 0.05, read, until: { $0 == percent })
    }

    /// The built bridge executable; nil, with the test failed for it, when it is not built.
    static func executable(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        guard let executable = BridgeProcess.executable else {
            Issue.record("gesture-bridge is not built beside the tests; run `swift build` first", sourceLocation: sourceLocation)
            return nil
        }
        return executable
    }

    /// `gesture-bridge run --json` with the volume config on `server`, `settings` added to its
    /// environment, once it listens.
    static func runBridge(_ server: HeadlessXorg, _ settings: [String: String]) throws -> BridgeProcess {
        try server.bridge(config: config, environment: settings)
    }

    /// Puts the pen down at the path's first point and moves it along the rest, left down.
    static func trace(_ server: HeadlessXorg, _ path: [PixelPoint]) throws {
        try server.pen.down(at: path[0], pressure: 0.2)
        for point in path.dropFirst() { try server.pen.move(to: point) }
    }

    /// The share of the level ring around the knob's center that shows the arc's colour.
    static func filledShare(_ display: OpaquePointer, width: Int, height: Int) -> Double {
        let shot = OverlayScreenshot(display: display, root: XDefaultRootWindow(display), width: width, height: height)
        let samples = (0..<720).map { shot.color(around: center, radius: ProgressRing.radius, degrees: Double($0) / 2) }
        return Double(samples.filter { $0 == .pulse }.count) / Double(samples.count)
    }

    static func waitForShare(near level: Double, _ display: OpaquePointer, width: Int, height: Int) -> Double {
        poll(timeout: 3, every: 0.05, { filledShare(display, width: width, height: height) }, until: { abs($0 - level) <= 0.05 })
    }

    @Test("185° clockwise raises 50% to 80% and the ring fills to 80%; 100° back lowers it to 65%; the ring goes on lift")
    func turnsVolume() throws {
        let sound = try SoundServer()
        try sound.setVolume(percent: 50)
        let display = try #require(XOpenDisplay(server.displayName))
        defer { XCloseDisplay(display) }

        let bridge = try Self.runBridge(server, ["PULSE_SERVER": sound.address])

        let forward = KnobPath.points(center: (640, 400), radius: 100, fromDegrees: 0, toDegrees: 185)
        let back = KnobPath.points(center: (640, 400), radius: 100, fromDegrees: 185, toDegrees: 85)
        try Self.trace(server, forward)
        #expect(try Self.waitForVolume(80) { try sound.volumePercent() } == 80, "\(bridge.log)")
        let raised = Self.waitForShare(near: 0.8, display, width: server.width, height: server.height)
        #expect(abs(raised - 0.8) <= 0.05, "the ring shows \(raised) of the circle at 80%")

        for point in back.dropFirst() { try server.pen.move(to: point) }
        #expect(try Self.waitForVolume(65) { try sound.volumePercent() } == 65, "\(bridge.log)")
        let lowered = Self.waitForShare(near: 0.65, display, width: server.width, height: server.height)
        #expect(abs(lowered - 0.65) <= 0.05, "the ring shows \(lowered) of the circle at 65%")

        try server.pen.up()
        let gone = Self.waitForShare(near: 0, display, width: server.width, height: server.height)
        #expect(gone == 0, "the ring is still there after the lift")
        let changes = bridge.actions.filter { $0.action == "volume" }.compactMap(\.fields.change)
        #expect(changes == Array(repeating: "+5%", count: 6) + Array(repeating: "-5%", count: 3), "six steps up and three down")
        #expect(bridge.events(.actionFailed).isEmpty && bridge.events(.xError).isEmpty, "\(bridge.lines)")
    }

    @Test("on PipeWire the bridge turns the volume through wpctl", .requiresPipeWire)
    func turnsPipeWireVolume() throws {
        let sound = try PipeWireServer()
        try sound.setVolume(percent: 30)
        let bridge = try Self.runBridge(server, ["XDG_RUNTIME_DIR": sound.runtimeDirectory.path])

        let back = KnobPath.points(center: (640, 400), radius: 100, fromDegrees: 90, toDegrees: -5)
        try Self.trace(server, back)
        try server.pen.up()
        let reading = try Self.waitForVolume(15) { try sound.volume().percent }
        #expect(reading == 15, "95° counterclockwise is three steps of -5% from 30%: \(bridge.log)")
        #expect(bridge.events(.actionFailed).isEmpty && bridge.events(.xError).isEmpty, "\(bridge.lines)")
    }

    @Test("with no sound server the bridge logs one clear error and keeps running")
    func noServer() throws {
        let bridge = try Self.runBridge(server, ["PULSE_SERVER": "unix:/nonexistent/gesture-bridge-test/native"])

        let turn = KnobPath.points(center: (640, 400), radius: 100, fromDegrees: 0, toDegrees: 185)
        try Self.trace(server, turn)
        try server.pen.up()
        #expect(bridge.waitForEvents(.actionFailed, timeout: 5), "\(bridge.log)")
        // Six steps, one error.
        #expect(!bridge.waitForEvents(.actionFailed, count: 2, timeout: 0.3), "\(bridge.events(.actionFailed))")
        let failures = bridge.events(.actionFailed)
        #expect(failures.count == 1, "\(failures)")
        let failure = try #require(failures.first)
        #expect(failure.binding == "volume" && failure.kind == "volume", "\(failure)")
        #expect(failure.action?.change == "+5%", "\(failure)")
        let message = failure.message ?? ""
        #expect(message.hasPrefix("pactl: Connection failure") && message.contains("; wpctl: "), "\(message)")
        #expect(bridge.child.waitForExit(timeout: 0.1) == nil, "the bridge keeps running")
    }

    @Test("doctor reads the volume for a config with volume actions, and names the problem without a server")
    func doctor() throws {
        let sound = try SoundServer()
        try sound.setVolume(percent: 45)
        guard let executable = Self.executable() else { return }
        let config = try temporaryConfig(Self.config)
        var environment = BridgeProcess.environment(server)
        environment["PULSE_SERVER"] = sound.address
        func volumeFindings(_ doctor: ChildProcess) throws -> [DoctorFindingLine] {
            try doctor.output.split(separator: "\n").map { try JSONDecoder().decode(DoctorFindingLine.self, from: Data($0.utf8)) }
                .filter { $0.check == .volume }
        }
        let healthy = try ChildProcess(executable: executable, arguments: ["doctor", "--json", "--config", config], environment: environment)
        #expect(healthy.waitForExit(timeout: 10) == 0, "\(healthy.output)\(healthy.errorOutput)")
        let read = try volumeFindings(healthy)
        #expect(read.map(\.status) == [.ok] && read.first?.message.contains("pactl reads the default output at 45%") == true, "\(healthy.output)")

        environment["PULSE_SERVER"] = "unix:/nonexistent/gesture-bridge-test/native"
        let broken = try ChildProcess(executable: executable, arguments: ["doctor", "--json", "--config", config], environment: environment)
        #expect(broken.waitForExit(timeout: 10) == 1, "\(broken.output)\(broken.errorOutput)")
        let unread = try volumeFindings(broken)
        #expect(unread.map(\.status) == [.problem] && unread.first?.binding == "volume", "\(broken.output)")
        // Both tools tried, each one's failure said.
        #expect(unread.first.map { $0.message.contains("pactl: Connection failure") && $0.message.contains("; wpctl: ") } == true, "\(broken.output)")
    }
}
