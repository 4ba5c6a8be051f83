import Foundation
import Testing

/// A command that fails prints its message as it is, without ArgumentParser's `Error:` and
/// usage, and exits with its own status (`CommandFailure`); a mistake on the command line is
/// ArgumentParser's to report, with both.
@Suite("Command line: how a command fails")
struct CommandFailureTests {
    static func environment(without names: [String]) -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !names.contains($0.key) }
    }

    @Test("a broken config: its located errors and nothing else, status 1")
    func brokenConfig() throws {
        let path = try GestureBridgeExecutable.temporaryFile(
            "bindings:\n  - name: a\n    gesture: deep-press\n    threshold: 2\n", suffix: ".yaml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try GestureBridgeExecutable.run(["check", path])
        #expect(run.status == 1 && !run.crashed)
        #expect(run.stderr == "\(path):4:16: error: `threshold` must be between 0.01 and 1, not 2\n", "\(run.stderr)")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
    }

    @Test("no X server to connect to: one `gesture-bridge: error:` line, status 78 (a session it cannot run in)")
    func noDisplay() throws {
        let run = try GestureBridgeExecutable.run(["devices"], environment: Self.environment(without: ["DISPLAY"]))
        #expect(run.status == 78 && !run.crashed)
        #expect(run.stderr.hasPrefix("gesture-bridge: error: DISPLAY is not set"), "\(run.stderr)")
        #expect(run.stderr.filter { $0 == "\n" }.count == 1, "\(run.stderr)")
    }

    @Test("no learned state anywhere: the command's own `error:` line, status 1")
    func noStateDirectory() throws {
        let run = try GestureBridgeExecutable.run(["learned"], environment: Self.environment(without: ["HOME", "XDG_STATE_HOME"]))
        #expect(run.status == 1 && !run.crashed)
        #expect(run.stderr == "error: neither XDG_STATE_HOME nor HOME is set: there is no learned state\n", "\(run.stderr)")
    }

    @Test("doctor's findings say what is wrong; the failure adds nothing to them")
    func doctorWithoutDisplay() throws {
        let run = try GestureBridgeExecutable.run(["doctor"], environment: Self.environment(without: ["DISPLAY"]))
        #expect(run.status == 1 && !run.crashed)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        #expect(run.stdout.contains("DISPLAY is not set") && run.stdout.hasSuffix("to fix first.\n"), "\(run.stdout)")
    }

    @Test("a mistake on the command line: ArgumentParser's `Error:` with the usage, status 64")
    func commandLineMistake() throws {
        let run = try GestureBridgeExecutable.run(["no-such-command"])
        #expect(run.status == 64 && !run.crashed)
        #expect(run.stderr.hasPrefix("Error: ") && run.stderr.contains("Usage: gesture-bridge"), "\(run.stderr)")
    }
}
