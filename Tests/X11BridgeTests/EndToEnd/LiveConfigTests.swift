import Foundation
import Glibc
import Testing
import XorgTestSupport

/// Saving the config file is enough: the running bridge notices and loads it, without SIGHUP.
@Suite("A running bridge reads its config again when the file changes", .requiresXorg, .serialized)
struct LiveConfigTests {
    /// A directory of its own for a config file, removed when the test lets go of it.
    final class ConfigDirectory {
        let path: String

        init() throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-live-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }

        var file: String { path + "/config.yaml" }

        /// Overwrites the file where it is, the way `echo > file` or an editor saving in place
        /// does; with `pause`, in two halves that far apart, like a slow write.
        func writeInPlace(_ text: String, pause: Double = 0) throws {
            let handle = try #require(FileHandle(forWritingAtPath: file))
            try handle.truncate(atOffset: 0)
            let bytes = Data(text.utf8)
            try handle.write(contentsOf: bytes.prefix(bytes.count / 2))
            if pause > 0 { Thread.sleep(forTimeInterval: pause) }
            try handle.write(contentsOf: bytes.dropFirst(bytes.count / 2))
            try handle.close()
        }

        /// Writes a new file beside it and renames it over the old one, the way most editors save.
        func replaceByRename(_ text: String) throws {
            let temporary = path + "/.config.yaml.new"
            try text.write(toFile: temporary, atomically: false, encoding: .utf8)
            #expect(rename(temporary, file) == 0)
        }
    }

    static let broken = "bindings:\n  - name: hard-press\n    gesture: deep-pres\n"

    static func presses(_ button: Int32, _ events: [RecordedEvent]) -> Bool {
        events.contains { $0.kind == .buttonPress && $0.detail == button }
    }

    /// A deep press at `point`, and what the window received for it.
    static func deepPress(_ server: HeadlessXorg, _ window: RecorderWindow, at point: PixelPoint,
                          expecting button: Int32) throws -> [RecordedEvent] {
        window.drain()
        try LiveSessionTests.deepPress(server, at: point)
        return window.events { presses(button, $0) && $0.contains { $0.kind == .buttonRelease && $0.detail == button } }
    }

    @Test("an edit saved in place takes effect: deep press changes from right click to middle click")
    func editInPlace() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let directory = try ConfigDirectory()
        try LiveSessionTests.config(click: "right").write(toFile: directory.file, atomically: false, encoding: .utf8)
        let bridge = try BridgeProcess(["run", "--config", directory.file], server: server)
        #expect(bridge.log.contains("reloading \(directory.file) whenever it changes"), "\(bridge.log)")

        let before = try Self.deepPress(server, window, at: (200, 200), expecting: 3)
        #expect(Self.presses(3, before), "\(before)")

        // Written in two halves 40 ms apart: the half-written file is never read.
        try directory.writeInPlace(LiveSessionTests.config(click: "middle"), pause: 0.04)
        #expect(bridge.waitForLog(containing: "reloaded \(directory.file)"), "\(bridge.log)")
        let after = try Self.deepPress(server, window, at: (250, 200), expecting: 2)
        #expect(Self.presses(2, after), "\(after)")
        #expect(!Self.presses(3, after))
        // The save was a burst of events (truncate, writes, close); it is read once, whole.
        Thread.sleep(forTimeInterval: 0.3)
        #expect(bridge.logCount(of: "reloaded \(directory.file)") == 1, "\(bridge.log)")
        #expect(!bridge.log.contains("is broken"), "\(bridge.log)")
        #expect(bridge.stop(with: SIGINT) == 0)
    }

    @Test("a file replaced by a rename, as editors save, takes effect")
    func replaceByRename() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let directory = try ConfigDirectory()
        try LiveSessionTests.config(click: "right").write(toFile: directory.file, atomically: false, encoding: .utf8)
        let bridge = try BridgeProcess(["run", "--config", directory.file], server: server)

        try directory.replaceByRename(LiveSessionTests.config(click: "middle"))
        #expect(bridge.waitForLog(containing: "reloaded \(directory.file)"), "\(bridge.log)")
        let after = try Self.deepPress(server, window, at: (250, 200), expecting: 2)
        #expect(Self.presses(2, after), "\(after)")
        #expect(!Self.presses(3, after))

        // Renamed over again: the watch follows the name, not the file it first saw.
        try directory.replaceByRename(LiveSessionTests.config(click: "right"))
        #expect(bridge.waitForLog(containing: "reloaded \(directory.file)", count: 2), "\(bridge.log)")
        let again = try Self.deepPress(server, window, at: (300, 200), expecting: 3)
        #expect(Self.presses(3, again), "\(again)")
        #expect(!Self.presses(2, again))
        #expect(bridge.stop(with: SIGINT) == 0)
    }

    @Test("a broken edit keeps the old binding working and says where it is broken; fixing it loads")
    func brokenThenFixed() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let directory = try ConfigDirectory()
        try LiveSessionTests.config(click: "right").write(toFile: directory.file, atomically: false, encoding: .utf8)
        let bridge = try BridgeProcess(["run", "--config", directory.file], server: server)

        try directory.writeInPlace(Self.broken)
        #expect(bridge.waitForLog(containing: "keeping the bindings already running"), "\(bridge.log)")
        #expect(bridge.log.contains("\(directory.file):3:14:"), "\(bridge.log)")
        #expect(bridge.log.contains("deep-pres"))
        let during = try Self.deepPress(server, window, at: (200, 200), expecting: 3)
        #expect(Self.presses(3, during), "the old right-click binding still works: \(during)")

        try directory.replaceByRename(LiveSessionTests.config(click: "middle"))
        #expect(bridge.waitForLog(containing: "reloaded \(directory.file)"), "\(bridge.log)")
        let after = try Self.deepPress(server, window, at: (250, 200), expecting: 2)
        #expect(Self.presses(2, after), "\(after)")
        #expect(!Self.presses(3, after))
        #expect(bridge.stop(with: SIGINT) == 0)
    }

    @Test("removing the file keeps the bindings running and says so; writing it again loads it")
    func removedThenRewritten() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let directory = try ConfigDirectory()
        try LiveSessionTests.config(click: "right").write(toFile: directory.file, atomically: false, encoding: .utf8)
        let bridge = try BridgeProcess(["run", "--config", directory.file], server: server)

        #expect(unlink(directory.file) == 0)
        #expect(bridge.waitForLog(containing: "\(directory.file) was removed; keeping the bindings already running"), "\(bridge.log)")
        let during = try Self.deepPress(server, window, at: (200, 200), expecting: 3)
        #expect(Self.presses(3, during), "\(during)")

        try LiveSessionTests.config(click: "middle").write(toFile: directory.file, atomically: false, encoding: .utf8)
        #expect(bridge.waitForLog(containing: "reloaded \(directory.file)"), "\(bridge.log)")
        let after = try Self.deepPress(server, window, at: (250, 200), expecting: 2)
        #expect(Self.presses(2, after), "\(after)")
        #expect(bridge.stop(with: SIGINT) == 0)
    }

    @Test("running the built-in default, creating the user's config file loads it, and SIGHUP reads it from then on")
    func createdAtDefaultLocation() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let home = try ConfigDirectory()
        let directory = home.path + "/gesture-bridge"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/config.yaml"
        let bridge = try BridgeProcess(["run"], server: server, environment: ["XDG_CONFIG_HOME": home.path])
        #expect(bridge.log.contains("config: <built-in default>"), "\(bridge.log)")
        #expect(bridge.log.contains("\(file) is loaded as soon as it is created"), "\(bridge.log)")

        // The default's deep press right-clicks.
        let before = try Self.deepPress(server, window, at: (200, 200), expecting: 3)
        #expect(Self.presses(3, before), "\(before)")

        try LiveSessionTests.config(click: "middle").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(bridge.waitForLog(containing: "reloaded \(file)"), "\(bridge.log)")
        let after = try Self.deepPress(server, window, at: (250, 200), expecting: 2)
        #expect(Self.presses(2, after), "\(after)")
        #expect(!Self.presses(3, after))

        bridge.child.kill(signal: SIGHUP)
        #expect(bridge.waitForLog(containing: "reloaded \(file)", count: 2), "\(bridge.log)")
        #expect(!bridge.log.contains("there is no config file to read again"))
        #expect(bridge.stop(with: SIGINT) == 0)
    }

    @Test("a config that is a symbolic link into a dotfiles directory: editing the file it points to takes effect")
    func symbolicLink() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let directory = try ConfigDirectory()
        let dotfiles = try ConfigDirectory()
        let target = dotfiles.path + "/gesture-bridge.yaml"
        try LiveSessionTests.config(click: "right").write(toFile: target, atomically: false, encoding: .utf8)
        #expect(symlink(target, directory.file) == 0)
        let bridge = try BridgeProcess(["run", "--config", directory.file], server: server)

        try LiveSessionTests.config(click: "middle").write(toFile: target, atomically: true, encoding: .utf8)
        #expect(bridge.waitForLog(containing: "reloaded \(directory.file)"), "\(bridge.log)")
        let after = try Self.deepPress(server, window, at: (250, 200), expecting: 2)
        #expect(Self.presses(2, after), "\(after)")
        #expect(!Self.presses(3, after))
        #expect(bridge.stop(with: SIGINT) == 0)
    }

    @Test("--no-watch leaves a changed file alone until SIGHUP")
    func noWatch() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let window = try RecorderWindow(server: server)
        defer { window.close() }
        let directory = try ConfigDirectory()
        try LiveSessionTests.config(click: "right").write(toFile: directory.file, atomically: false, encoding: .utf8)
        let bridge = try BridgeProcess(["run", "--no-watch", "--config", directory.file], server: server)

        try directory.writeInPlace(LiveSessionTests.config(click: "middle"))
        #expect(!bridge.waitForLog(containing: "reloaded", timeout: 0.5), "\(bridge.log)")
        let during = try Self.deepPress(server, window, at: (200, 200), expecting: 3)
        #expect(Self.presses(3, during), "\(during)")

        bridge.child.kill(signal: SIGHUP)
        #expect(bridge.waitForLog(containing: "reloaded \(directory.file)"), "\(bridge.log)")
        #expect(bridge.stop(with: SIGINT) == 0)
    }
}
