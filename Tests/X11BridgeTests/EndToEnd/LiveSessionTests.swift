import Foundation
import Glibc
import Testing
import XorgTestSupport

@Suite("A running bridge: reload, dry run, hot-plug", .requiresXorg, .serialized)
struct LiveSessionTests {
    static func config(click button: String) -> String {
        """
        bindings:
          - name: hard-press
            gesture: deep-press
            devices: [pen]
            threshold: 0.7
            action: {click: \(button)}
        """
    }

    static func presses(_ button: Int32) -> ([RecordedEvent]) -> Bool {
        { events in events.contains { $0.kind == .buttonPress && $0.detail == button } }
    }

    static func deepPress(_ server: HeadlessXorg, at point: PixelPoint) throws {
        try server.pen.down(at: point, pressure: 0.1)
        try server.pen.press(to: 0.9)
        try server.pen.up()
    }

    @Test("SIGHUP: a broken config is reported with its place and the old bindings keep working; a good one takes over")
    func reload() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let path = try temporaryConfig(Self.config(click: "right"))
        let bridge = try BridgeProcess(["run", "--json", "--config", path], server: server)

        try "bindings:\n  - name: hard-press\n    gesture: deep-pres\n".write(toFile: path, atomically: true, encoding: .utf8)
        bridge.child.kill(signal: SIGHUP)
        #expect(bridge.waitForEvents("config-rejected"))
        #expect((bridge.events("config-rejected").first?["message"] as? String)?.contains("\(path):3:") == true)
        try Self.deepPress(server, at: (200, 200))
        #expect(Self.presses(3)(window.events(until: Self.presses(3))))

        try Self.config(click: "middle").write(toFile: path, atomically: true, encoding: .utf8)
        bridge.child.kill(signal: SIGHUP)
        #expect(bridge.waitForEvents("config-reloaded"))
        #expect(bridge.events("config-reloaded").first?["source"] as? String == path)
        window.drain()
        try Self.deepPress(server, at: (250, 200))
        let after = window.events(until: Self.presses(2))
        #expect(Self.presses(2)(after))
        #expect(!Self.presses(3)(after))
        #expect(bridge.stop(with: SIGINT) == 0)
    }

    @Test("--dry-run says what it would do and sends nothing")
    func dryRun() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let bridge = try BridgeProcess(["run", "--dry-run", "--json"], server: server)

        try Self.deepPress(server, at: (300, 300))
        #expect(bridge.waitForLog(containing: "dry run: would click button 3"))
        #expect(bridge.objects.contains { $0["action"] as? String == "click" })
        #expect(!Self.presses(3)(window.drain()))
    }

    @Test("a device disabled and enabled again leaves and rejoins the running bridge")
    func hotPlug() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let bridge = try BridgeProcess(["run", "--json"], server: server)
        for action in ["disable", "enable"] {
            let xinput = try ChildProcess(executable: "/usr/bin/xinput", arguments: [action, "test-touch"],
                                          environment: BridgeProcess.environment(server))
            #expect(xinput.waitForExit(timeout: 5) == 0)
        }
        #expect(bridge.waitForEvents("device-added"), "\(bridge.objects)")
        #expect(bridge.events("device-disabled").first?["name"] as? String == "test-touch")
        let added = bridge.events("device-added").first?["device"] as? [String: Any]
        #expect(added?["name"] as? String == "test-touch" && added?["kind"] as? String == "touch", "\(String(describing: added))")
    }

    /// A pen deep press bound to `key`.
    static func keyConfig(_ key: String) -> String {
        """
        bindings:
          - name: key
            gesture: deep-press
            devices: [pen]
            action: {key: \(key)}
        """
    }

    /// The keysyms of the key presses `window` receives, up to the first release.
    static func keysTyped(_ window: RecorderWindow) -> [String] {
        window.events { $0.contains { $0.kind == .keyRelease } }.filter { $0.kind == .keyPress }.compactMap(\.keysymName)
    }

    @Test("a layout switched while the bridge runs is the one its keys follow")
    func keymapSwitch() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let bridge = try BridgeProcess(["run", "--config", try temporaryConfig(Self.keyConfig("z"))], server: server)
        // The first key makes the bridge look the keymap up (and XKB report changes to it).
        try Self.deepPress(server, at: (300, 300))
        #expect(Self.keysTyped(window) == ["z"])

        // German: z and y trade places, so the US layout's z key now types y.
        let layout = Process()
        layout.executableURL = URL(fileURLWithPath: "/usr/bin/setxkbmap")
        layout.arguments = ["-display", server.displayName, "de"]
        layout.environment = server.clientEnvironment
        try ChildProcessLauncher.run(layout)
        layout.waitUntilExit()
        try #require(layout.terminationStatus == 0, "setxkbmap de")
        Thread.sleep(forTimeInterval: 0.3)

        window.drain()
        try Self.deepPress(server, at: (320, 300))
        #expect(Self.keysTyped(window) == ["z"], "the key that types z on the new layout")
        #expect(bridge.stop(with: SIGTERM) == 0)
    }

    @Test("a key the keymap lacks still reaches the application")
    func borrowedKey() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let bridge = try BridgeProcess(["run", "--config", try temporaryConfig(Self.keyConfig("Greek_alpha"))], server: server)
        try Self.deepPress(server, at: (300, 300))
        #expect(Self.keysTyped(window) == ["Greek_alpha"])
        #expect(bridge.stop(with: SIGTERM) == 0)
    }
}
