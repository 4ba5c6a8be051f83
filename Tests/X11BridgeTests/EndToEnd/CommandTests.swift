import Foundation
import GestureKit
import Testing
import XorgTestSupport
@testable import X11Bridge

@Suite("devices and record on a real server", .requiresXorg, .serialized)
final class CommandTests: ServerSuite {
    @Test("devices lists the pen's and the touchscreen's pressure ranges and who listens")
    func devices() throws {
        // A touch that ends without its pressure going back to 0, as most touchscreens' do: X
        // keeps that pressure, and the touchscreen is not pressing (found in review of the docs
        // against behaviour: `devices` and `doctor` said "pressing now" until the next touch).
        try server.touch.begin(id: 1, at: (200, 200), pressure: 0.3)
        try server.touch.lift(id: 1)
        // The stimulus: X reads the touchscreen's pressure above its minimum with no touch down.
        let connection = try XConnection.open(name: server.displayName, requirements: .init(xtest: false))
        let kept = DeviceCatalog.query(connection).devices.first { $0.name == "test-touch" }?.valuators.first { $0.isPressure }
        connection.close()
        #expect(kept.map { $0.value > $0.min } == true, "\(String(describing: kept))")
        let listing = try BridgeProcess(["devices", "--json"], server: server, ready: .immediately)
        #expect(listing.child.waitForExit(timeout: 5) == 0)
        let byName = Dictionary(try listing.printed(DeviceLine.self).map { ($0.name, $0) },
                                uniquingKeysWith: { first, _ in first })
        let pen = try #require(byName["test-pen"])
        let touch = try #require(byName["test-touch"])
        #expect(pen.kind == "pen")
        #expect(pen.pressure?.min == 0)
        #expect(pen.pressure?.max == 1000)
        #expect(touch.kind == "touch")
        #expect(touch.pressure?.max == 2047)
        #expect(touch.touches == 10)
        #expect(pen.listened == true)
        #expect(pen.bindings?.contains("right-click") == true)
        // The driver whose conventions it follows (the test driver marks none), and whether it has pressed yet.
        #expect(pen.driver == "unknown", "\(pen)")
        #expect(pen.pressureMoved == false, "nothing has pressed the pen yet: \(pen)")
        #expect(touch.pressureMoved == nil, "a touchscreen's pressure after its lift tells nothing: \(touch)")
        // The XTEST pointer is where the bridge's own clicks come from: never a device to listen to.
        #expect(!byName.keys.contains { $0.contains("XTEST") })

        let table = try BridgeProcess(["devices"], server: server, ready: .immediately)
        #expect(table.child.waitForExit(timeout: 5) == 0)
        #expect(table.outputLines.first?.contains("DRIVER") == true, "\(table.outputLines)")
        #expect(table.outputLines.contains { $0.contains("test-pen") && $0.contains("0..1000") && !$0.contains("pressing now") },
                "\(table.outputLines)")
        #expect(table.outputLines.contains { $0.contains("test-touch") && $0.contains("0..2047") && $0.contains("10") && !$0.contains("pressing now") },
                "\(table.outputLines)")
    }

    /// Found in review of the docs against behaviour: `devices` printed only the config's
    /// error, while `doctor` and the bridge's own warning send a person to it to find the name
    /// of the device their binding mistypes.
    @Test("devices with a config broken: the error with its place, the devices listed all the same, BINDINGS from what a bridge started now runs (the config that last loaded; for the user's own, else the built-in default; for a --config file, else ?, and null in --json), exit status 1")
    func devicesWithBrokenConfig() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("devices-broken-\(getpid())")
        defer { try? FileManager.default.removeItem(at: home) }
        let folder = home.appendingPathComponent("config/gesture-bridge")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("config.yaml").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("bindings: [\n".utf8), attributes: [.posixPermissions: 0o600]))
        let environment = ["XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                           "XDG_STATE_HOME": home.appendingPathComponent("state").path]
        // The user's own, never loaded, nothing kept: a bridge started now runs the built-in default.
        let own = try BridgeProcess(["devices", "--json"], server: server, environment: environment, ready: .immediately)
        #expect(own.child.waitForExit(timeout: 5) == 1)
        let ownPen = try #require(try own.printed(DeviceLine.self).first { $0.name == "test-pen" }, "\(own.outputLines)")
        let defaults = Set(ConfigLoader.builtInDefault.bindings.map(\.name))
        #expect(ownPen.listened == true && ownPen.bindings.map { !$0.isEmpty && Set($0).isSubset(of: defaults) } == true,
                "\(ownPen)\n\(own.log)")
        #expect(own.log.contains("config.yaml:2:"), "the error, with its place: \(own.log)")
        // Another file, named with --config: nothing stands in for it.
        let named = home.appendingPathComponent("named.yaml").path
        #expect(FileManager.default.createFile(atPath: named, contents: Data("bindings: [\n".utf8), attributes: [.posixPermissions: 0o600]))
        let listing = try BridgeProcess(["devices", "--json", "--config", named], server: server, environment: environment, ready: .immediately)
        #expect(listing.child.waitForExit(timeout: 5) == 1)
        let listed = try listing.printed(DeviceLine.self)
        #expect(Set(listed.map(\.name)).isSuperset(of: ["test-pen", "test-touch"]), "\(listing.outputLines)")
        #expect(listed.allSatisfy { $0.listened == nil && $0.bindings == nil }, "which bindings listen is not known: \(listing.outputLines)")
        #expect(listing.log.contains("named.yaml:2:"), "the error, with its place: \(listing.log)")
        let table = try BridgeProcess(["devices", "--config", named], server: server, environment: environment, ready: .immediately)
        #expect(table.child.waitForExit(timeout: 5) == 1)
        #expect(table.outputLines.contains { $0.contains("test-pen") && $0.hasSuffix("?") }, "\(table.outputLines)")

        // The config that last loaded from the file, kept as a bridge keeps it: its bindings.
        let kept = KeptConfig(directory: home.appendingPathComponent("state/gesture-bridge/configs").path)
        try FileManager.default.createDirectory(atPath: kept.directory, withIntermediateDirectories: true)
        let good = "bindings:\n  - name: mended\n    gesture: deep-press\n    devices: [pen]\n    action: {click: right}\n"
        #expect(FileManager.default.createFile(atPath: kept.path(for: file), contents: Data(good.utf8), attributes: [.posixPermissions: 0o600]))
        let withKept = try BridgeProcess(["devices", "--json"], server: server, environment: environment, ready: .immediately)
        #expect(withKept.child.waitForExit(timeout: 5) == 1)
        let pen = try #require(try withKept.printed(DeviceLine.self).first { $0.name == "test-pen" }, "\(withKept.outputLines)")
        #expect(pen.bindings == ["mended"] && pen.listened == true, "\(pen)\n\(withKept.log)")
    }

    @Test("record --seconds stops by itself; --device records only that device")
    func recordOptions() throws {
        let recording = try BridgeProcess(["record", "--device", "test-touch", "--seconds", "0.5"], server: server,
                                          ready: .says("recording"))
        try server.pen.down(at: (100, 100), pressure: 0.5)
        try server.pen.up()
        try server.touch.tap(at: (200, 200), pressure: 0.5)
        #expect(recording.child.waitForExit(timeout: 5) == 0)
        let trace = try TraceReader.parse(recording.child.output, file: "recorded")
        #expect(trace.header.devices.map(\.name) == ["test-touch"])
        #expect(trace.events.map(\.phase) == [.begin, .end])
        #expect(trace.events.allSatisfy { $0.position == Point(x: 200, y: 200) })
    }

    /// Found in review: the log said the touchscreen, back, was not recorded, and its touches
    /// were recorded under the header's entry all the same (another device given the id too).
    /// Then found in review of a bug reporter's traces: a tablet switched off and on (or
    /// re-plugged) while recording was left out of the rest of the recording.
    @Test("record: a device disabled and enabled while recording is recorded again, under its entry in the header")
    func recordReplugged() throws {
        let recording = try BridgeProcess(["record"], server: server, ready: .says("recording"))
        try server.touch.tap(at: (200, 200), pressure: 0.5)
        let environment = BridgeProcess.environment(server)
        for verb in ["disable", "enable"] {
            let xinput = try ChildProcess(executable: "/usr/bin/xinput", arguments: [verb, VirtualTouchscreen.deviceName],
                                          environment: environment)
            #expect(xinput.waitForExit(timeout: 5) == 0)
        }
        try server.touch.reconnect()
        // The recorder has seen it come back.
        let deadline = Date().addingTimeInterval(3)
        while !recording.log.contains("is back"), Date() < deadline { usleep(10_000) }
        try server.touch.tap(at: (300, 300), pressure: 0.5)
        try server.pen.down(at: (100, 100), pressure: 0.5)
        try server.pen.up()
        #expect(recording.stop(with: SIGINT) == 0)
        let trace = try TraceReader.parse(recording.child.output, file: "recorded")
        let touchID = try #require(trace.header.devices.first { $0.name == VirtualTouchscreen.deviceName }?.id)
        #expect(trace.header.devices.count == 2, "\(trace.header.devices)")
        let touches = trace.events.filter { $0.device == touchID }
        #expect(touches.map(\.phase) == [.begin, .end, .begin, .end], "both taps: \(touches)")
        #expect(touches.map(\.position) == [200, 200, 300, 300].map { Point(x: $0, y: $0) }, "\(touches)")
        #expect(trace.events.contains { $0.device != touchID && $0.phase == .end }, "the pen's tap, after: \(trace.events)")
    }

    /// Found in review of a long recording: a device switched off before the recording's first
    /// contact was in the header, and once on again "came after the recording started".
    @Test("record: the pen switched off before the first contact and on after it is recorded under its header id")
    func recordOffBeforeFirstContact() throws {
        let recording = try BridgeProcess(["record"], server: server, ready: .says("recording"))
        let environment = BridgeProcess.environment(server)
        let disable = try ChildProcess(executable: "/usr/bin/xinput", arguments: ["disable", VirtualPen.deviceName], environment: environment)
        #expect(disable.waitForExit(timeout: 5) == 0)
        let gone = Date().addingTimeInterval(3)
        while !recording.log.contains("test-pen"), Date() < gone { usleep(10_000) }
        try server.touch.tap(at: (200, 200), pressure: 0.5)
        let enable = try ChildProcess(executable: "/usr/bin/xinput", arguments: ["enable", VirtualPen.deviceName], environment: environment)
        #expect(enable.waitForExit(timeout: 5) == 0)
        try server.pen.reconnect()
        let deadline = Date().addingTimeInterval(3)
        while !recording.log.contains("is back"), Date() < deadline { usleep(10_000) }
        try server.pen.down(at: (100, 100), pressure: 0.5)
        try server.pen.up()
        #expect(recording.stop(with: SIGINT) == 0)
        #expect(!recording.log.contains("came after the recording started"), "\(recording.log)")
        let trace = try TraceReader.parse(recording.child.output, file: "recorded")
        let penID = try #require(trace.header.devices.first { $0.name == VirtualPen.deviceName }?.id)
        #expect(trace.events.filter { $0.device == penID && $0.phase != .hover }.map(\.phase) == [.begin, .end], "\(trace.events)")
    }

    @Test("record --device with a name no device has lists the devices there are")
    func recordUnknownDevice() throws {
        let recording = try BridgeProcess(["record", "--device", "test-tablet"], server: server, ready: .immediately)
        #expect(recording.child.waitForExit(timeout: 5) == 1)
        #expect(recording.log.contains("no device \"test-tablet\""))
        #expect(recording.log.contains("test-pen"))

        // Found in review of odd names: the file was made (emptied, with --force) before the
        // device was looked for: last week's trace lost, or the retry refused.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let kept = folder + "/last-week.jsonl", fresh = folder + "/new.jsonl"
        try String(repeating: "x", count: 100).write(toFile: kept, atomically: false, encoding: .utf8)
        for (file, force) in [(kept, true), (fresh, false)] {
            let run = try BridgeProcess(["record", "--device", "test-tablet", "-o", file] + (force ? ["--force"] : []),
                                        server: server, ready: .immediately)
            #expect(run.child.waitForExit(timeout: 5) == 1)
        }
        #expect((try? FileManager.default.attributesOfItem(atPath: kept)[.size] as? Int) == 100, "the old trace kept whole")
        #expect(!FileManager.default.fileExists(atPath: fresh), "no empty file left behind")
    }

    @Suite("a recorded session")
    final class OnAStage: StageSuite {
        @Test("a recorded session replays to the gestures and actions the live bridge logged")
        func recordReplays() throws {
            let live = try stage.bridge()
            let recording = try BridgeProcess(["record"], server: stage.server, ready: .says("recording"))

            // A deep press with the pen, a light tap, a hard touch, and a turn of the volume knob.
            try stage.pen.down(at: (400, 300), pressure: 0.1)
            try stage.pen.press(to: 0.4)
            try stage.pen.press(to: 0.95)
            try stage.pen.up()
            try stage.pen.down(at: (500, 300), pressure: 0.2)
            try stage.pen.up()
            try stage.touch.begin(at: (700, 500), pressure: 0.2)
            try stage.touch.update(pressure: 1)
            try stage.touch.end()
            let center: PixelPoint = (Double(stage.server.width) - 150, 150)
            let turn = KnobPath.points(center: center, radius: 60, fromDegrees: 90, toDegrees: 200)
            try stage.pen.down(at: turn[0], pressure: 0.2)
            for point in turn.dropFirst() { try stage.pen.move(to: point) }
            try stage.pen.up()

            // The knob ends last: once the live bridge printed that, it has seen everything.
            #expect(live.waitForLines { $0.gestures.contains { $0.gesture == "volume" && $0.state == .ended } })
            #expect(recording.stop(with: SIGINT) == 0)
            #expect(live.stop(with: SIGINT) == 0)

            let trace = try TraceReader.parse(recording.child.output, file: "recorded")
            #expect(trace.header.devices.map(\.name).sorted() == ["test-pen", "test-touch"])
            #expect(trace.header.screen == ScreenSize(width: Double(stage.server.width), height: Double(stage.server.height)))
            let replayed = try TraceReplay.run(trace, configuration: ConfigLoader.builtInDefault)
                .compactMap { OutputFormatter(style: .json).line(for: $0) }
                .map { try JSONDecoder().decode(OutputLine.self, from: Data($0.utf8)) }
            // The live bridge also says what the X server did with held input, and its own events
            // (listening, devices, reloads): no recording has those.
            let liveLines = live.lines.compactMap(timeless)
            #expect(!liveLines.isEmpty)
            #expect(replayed.compactMap(timeless) == liveLines)
            #expect(liveLines.contains { $0.contains("\"action\":\"click\"") })
            #expect(liveLines.contains { $0.contains("XF86AudioRaiseVolume") })
        }
    }
}
