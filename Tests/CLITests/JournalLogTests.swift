import Foundation
import Glibc
import Testing

/// Found in review (a day under the systemd user unit): every line went to the journal at one
/// priority with a time stamp of its own, so `journalctl -p warning` and a desktop's log viewer
/// never showed a broken config or a missing device.
@Suite("Log lines for the journal")
struct JournalLogTests {
    /// `run` on Xvfb with a config naming a device that is not there (a `device-missing`
    /// warning at start) for 2 s, its standard error a pipe; with `journal`, `JOURNAL_STREAM`
    /// names that pipe, as systemd names the journal's stream.
    static func standardError(journal: Bool) throws -> String {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let bridge = try #require(GestureBridgeExecutable.url)
        let config = try GestureBridgeExecutable.temporaryFile("""
            bindings:
              - name: pen-right-click
                gesture: deep-press
                devices: [{name: "No Such Pen"}]
                action: {click: 3}
            """, suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--preserve-status", "-s", "INT", "-k", "4", "2", bridge.path, "run", "--dry-run", "--config", config]
        let errors = Pipe()
        var environment = server.clientEnvironment
        environment["XDG_STATE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        if journal {
            var status = stat()
            #expect(fstat(errors.fileHandleForWriting.fileDescriptor, &status) == 0)
            environment["JOURNAL_STREAM"] = "\(status.st_dev):\(status.st_ino)"
        }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        return text
    }

    @Test("on the journal's stream each line carries its priority, a warning <4>, and no time stamp of its own",
          .requiresXvfb)
    func journalPriorities() throws {
        let lines = try Self.standardError(journal: true).split(separator: "\n").map(String.init)
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
        let server = try XvfbDisplay()
        defer { server.stop() }
        let bridge = try #require(GestureBridgeExecutable.url)
        let config = try GestureBridgeExecutable.temporaryFile("bindings:\n  - name: x\n    gesture: nonsense\n", suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: config) }
        let process = Process()
        process.executableURL = bridge
        process.arguments = ["run", "--dry-run", "--config", config]
        let errors = Pipe()
        var status = stat()
        #expect(fstat(errors.fileHandleForWriting.fileDescriptor, &status) == 0)
        var environment = server.clientEnvironment
        environment["XDG_STATE_HOME"] = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        environment["JOURNAL_STREAM"] = "\(status.st_dev):\(status.st_ino)"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1, "\(text)")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("nonsense") }, "\(lines)")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("<3>") }, "every line an error: \(lines)")
    }

    @Test("on any other standard error (a terminal, a file) the lines are stamped with the time and level, no priority",
          .requiresXvfb)
    func plainLines() throws {
        let lines = try Self.standardError(journal: false).split(separator: "\n").map(String.init)
        let missing = lines.filter { $0.contains("No Such Pen") }
        #expect(!missing.isEmpty && missing.allSatisfy { !$0.hasPrefix("<") && $0.contains("warning") }, "\(lines)")
    }
}
