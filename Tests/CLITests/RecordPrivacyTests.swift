import Foundation
import Glibc
import Testing

/// A trace holds pen strokes, which are handwriting: `record -o` makes it private, and never
/// overwrites a file without `--force`.
@Suite("Private recordings")
struct RecordPrivacyTests {
    static func mode(of path: String) -> mode_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o777 : nil
    }

    @Test("-o creates the trace readable by the user alone; an existing file is refused before anything starts; --force replaces it, private too", .requiresXvfb)
    func privateAndNotOverwritten() throws {
        let server = try XvfbDisplay()
        defer { server.stop() }
        let directory = try temporaryFolder("record")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/pen.jsonl"

        let first = try GestureBridgeExecutable.run(["record", "-o", trace, "--seconds", "0.3"], environment: server.clientEnvironment)
        #expect(first.status == 0 && !first.crashed, "\(first.stderr)")
        #expect(Self.mode(of: trace) == 0o600)
        let recorded = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(recorded.hasPrefix("{\"trace\":1"), "\(recorded)")

        let again = try GestureBridgeExecutable.run(["record", "-o", trace, "--seconds", "0.3"], environment: server.clientEnvironment)
        #expect(again.status != 0 && !again.crashed)
        #expect(again.stderr.contains("\(trace) already exists; pass --force to replace it"), "\(again.stderr)")
        #expect(try String(contentsOfFile: trace, encoding: .utf8) == recorded, "the trace is untouched")

        chmod(trace, 0o644)
        let forced = try GestureBridgeExecutable.run(["record", "-o", trace, "--seconds", "0.3", "--force"],
                                                     environment: server.clientEnvironment)
        #expect(forced.status == 0 && !forced.crashed, "\(forced.stderr)")
        #expect(Self.mode(of: trace) == 0o600, "a replaced trace is made private")
    }

    @Test("--force without -o is a mistake, said plainly")
    func forceWithoutOutput() throws {
        let run = try GestureBridgeExecutable.run(["record", "--force"])
        #expect(run.status != 0 && !run.crashed)
        #expect(run.stderr.contains("--force replaces the -o file"), "\(run.stderr)")
    }
}
