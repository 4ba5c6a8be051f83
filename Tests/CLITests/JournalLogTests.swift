import Foundation
import Glibc
import Testing

/// Found in review (a day under the systemd user unit): every line went to the journal at one
/// priority with a time stamp of its own, so `journalctl -p warning` and a desktop's log viewer
/// never showed a broken config or a missing device.
@Suite("Log lines for the journal")
struct JournalLogTests {
    /// `run --dry-run` on Xvfb with `config`, its standard error a pipe; with `journal`,
    /// `JOURNAL_STREAM` names that pipe, as systemd names the journal's stream. `seconds`: sent
    /// SIGINT after so long (a bridge that runs); nil for one that exits by itself.
    static func run(config text: String, journal: Bool, seconds: Int?) throws -> (status: Int32, standardError: String) {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let bridge = try #require(GestureBridgeExecutable.url)
        let config = try GestureBridgeExecutable.temporaryFile(text, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let process = Process()
        let arguments = [bridge.path, "run", "--dry-run", "--config", config]
        if let seconds {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = ["--preserve-status", "-s", "INT", "-k", "4", "\(seconds)"] + arguments
        } else {
            process.executableURL = bridge
            process.arguments = Array(arguments.dropFirst())
        }
        let errors = Pipe()
        var environment = server.clientEnvironment
        environment["XDG_STATE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        if journal { environment["JOURNAL_STREAM"] = journalStream(errors) }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// `JOURNAL_STREAM` naming `pipe`, as systemd names the journal's stream.
    static func journalStream(_ pipe: Pipe) -> String {
        var status = stat()
        #expect(fstat(pipe.fileHandleForWriting.fileDescriptor, &status) == 0)
        return "\(status.st_dev):\(status.st_ino)"
    }

    /// Found in review of a Wayland user's week: the autostart entry's bridge in a Wayland
    /// session said why it did nothing at the journal's info priority, where the README's
    /// `journalctl -p warning` never shows it.
    @Test("run --autostart in a Wayland session exits 0 and says why as a warning on the journal's stream")
    func autostartInWaylandWarns() throws {
        let bridge = try #require(GestureBridgeExecutable.url)
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-runtime-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        // The compositor's socket, as far as the bridge looks.
        #expect(FileManager.default.createFile(atPath: runtime + "/wayland-0", contents: nil))
        let process = Process(), errors = Pipe()
        process.executableURL = bridge
        process.arguments = ["run", "--autostart"]
        process.environment = ["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": runtime,
                               "XDG_STATE_HOME": runtime + "/state", "JOURNAL_STREAM": Self.journalStream(errors)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let lines = text.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("<4>") }, "\(text)")
    }

    /// Runs 2 s with a config naming a device that is not there: a `device-missing` warning at
    /// start. Its standard error's lines.
    static func standardError(journal: Bool) throws -> [String] {
        let run = try Self.run(config: """
            bindings:
              - name: pen-right-click
                gesture: deep-press
                devices: [{name: "No Such Pen"}]
                action: {click: 3}
            """, journal: journal, seconds: 2)
        #expect(run.status == 0, "\(run.standardError)")
        return run.standardError.split(separator: "\n").map(String.init)
    }

    @Test("on the journal's stream each line carries its priority, a warning <4>, and no time stamp of its own",
          .requiresXvfb)
    func journalPriorities() throws {
        let lines = try Self.standardError(journal: true)
        let missing = lines.filter { $0.contains("No Such Pen") }
        #expect(!missing.isEmpty && missing.allSatisfy { $0.hasPrefix("<4>") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<6>") && $0.contains("listening") }, "\(lines)")
        #expect(lines.allSatisfy { $0.range(of: #"^<[2-7]>"#, options: .regularExpression) != nil }, "every line: \(lines)")
    }

    /// Found in review: the errors that stop the unit (a broken config with nothing kept, no
    /// X server) were written without a priority, filed at info.
    @Test("the error that stops the bridge (a broken config, nothing kept) reaches the journal as an error, every line of it",
          .requiresXvfb)
    func failureIsAnError() throws {
        let run = try Self.run(config: "bindings:\n  - name: x\n    gesture: nonsense\n", journal: true, seconds: nil)
        #expect(run.status == 1, "\(run.standardError)")
        let lines = run.standardError.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("nonsense") }, "\(lines)")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("<3>") }, "every line an error: \(lines)")
    }

    @Test("on any other standard error (a terminal, a file) the lines are stamped with the time and level, no priority",
          .requiresXvfb)
    func plainLines() throws {
        let lines = try Self.standardError(journal: false)
        let missing = lines.filter { $0.contains("No Such Pen") }
        #expect(!missing.isEmpty && missing.allSatisfy { !$0.hasPrefix("<") && $0.contains("warning") }, "\(lines)")
    }
}
