import Foundation
import GestureKit
import Glibc
import Testing
import XorgTestSupport

/// A user at their process limit (`ulimit -u`, a login session's `TasksMax`): a browser's
/// hundreds of threads can take it, and then no process or thread can be made. Found in review
/// of a machine short of resources: the bridge handed the keeping of a reloaded config to a
/// libdispatch queue, whose thread could not be made, and libdispatch retried making it for
/// ever, from inside the event loop. The bridge froze: the press it held back stayed held for
/// every application, and SIGTERM went unread until SIGKILL.
@Suite("At the user's process limit", .requiresXorg, .serialized)
final class ProcessLimitTests: StageSuite {
    @Test("at the process limit, an edit loads, the next deep press clicks as edited, SIGTERM stops the bridge, and the edit is kept")
    func editAtTheLimit() throws {
        let directory = try LiveConfigTests.ConfigDirectory()
        try directory.writeNew(LiveSessionTests.config(click: "right"))
        var user = BridgeProcess.OtherUser.nobody
        // One task: the bridge's main thread takes it.
        user.processLimit = 1
        let state = directory.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        #expect(chown(state, user.uid, user.gid) == 0)
        let bridge = try BridgeProcess(["run", "--json", "--config", directory.file], displayName: stage.server.displayName,
                                       environment: ["XDG_STATE_HOME": state], user: user)
        let limits = try String(contentsOfFile: "/proc/\(bridge.child.pid)/limits", encoding: .utf8)
        #expect(limits.split(separator: "\n").contains { $0.hasPrefix("Max processes") && $0.split(separator: " ").dropFirst(2).prefix(2) == ["1", "1"] },
                "the stimulus: no thread can be made: \(limits)")
        try stage.expectDeepPress(at: (200, 200), gives: 3)

        let edited = LiveSessionTests.config(click: "middle")
        try directory.writeInPlace(edited)
        #expect(LiveConfigTests.reloaded(bridge, directory.file), "\(bridge.log)")
        try stage.expectDeepPress(at: (250, 200), gives: 2, not: 3)
        #expect(stage.window.pointerState()?.buttonsHeld == [], "\(bridge.log)")
        // The stimulus: the edit's keeping found no thread to run on.
        let status = try String(contentsOfFile: "/proc/\(bridge.child.pid)/status", encoding: .utf8)
        #expect(status.split(separator: "\n").contains("Threads:\t1"), "\(status)")

        #expect(bridge.stop(with: SIGTERM) == 0, "\(bridge.log)")
        // Kept as the bridge stopped, for the next start should the file break.
        let kept = KeptConfig(directory: state + "/gesture-bridge/configs")
        #expect(try String(contentsOfFile: kept.path(for: directory.file), encoding: .utf8) == edited)
    }

    /// Found in review of the day's change: on a terminal every line waits for the writer's
    /// thread, which at the process limit is never made, and what the bridge said was lost at
    /// its stop: the terminal stayed empty.
    @Test("at the process limit, on a terminal: what the bridge printed is there once it stops")
    func terminalAtTheLimit() throws {
        let executable = try #require(BridgeProcess.executable)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-limit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/state", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let user = BridgeProcess.OtherUser.nobody
        #expect(chown(folder + "/state", user.uid, user.gid) == 0)
        let pidFile = folder + "/pid"
        let command = "echo $$ > '\(pidFile)'; exec /usr/bin/prlimit --nproc=1:1 -- /usr/bin/setpriv --reuid=\(user.uid) --regid=\(user.gid) "
            + "--clear-groups -- '\(executable)' run --json --dry-run"
        let terminal = Process(), shown = Pipe()
        terminal.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        terminal.arguments = ["-q", "-c", command, "/dev/null"]
        terminal.environment = BridgeProcess.environment(stage.server).merging(["XDG_STATE_HOME": folder + "/state", "SHELL": "/bin/sh"]) { $1 }
        terminal.standardInput = Pipe()
        terminal.standardOutput = shown
        terminal.standardError = FileHandle.nullDevice
        try terminal.run()
        defer { if terminal.isRunning { kill(terminal.processIdentifier, SIGKILL) } }
        let bridge = try #require(poll(timeout: 10, every: 0.05, { () -> pid_t? in
            guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8) else { return nil }
            return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
        }, until: { $0 != nil }) ?? nil)
        // Running: its loop reads SIGINT (blocked, for its signalfd), as it does once it may
        // hold input. It says nothing the test can see yet.
        func status() -> String { (try? String(contentsOfFile: "/proc/\(bridge)/status", encoding: .utf8)) ?? "" }
        func readsInterrupt(_ status: String) -> Bool {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
                  let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
            return mask & (1 << (UInt64(SIGINT) - 1)) != 0
        }
        #expect(readsInterrupt(poll(timeout: 10, every: 0.05, status, until: readsInterrupt)), "the bridge did not start: \(status())")
        let running = status()
        #expect(running.contains("Uid:\t\(user.uid)") && running.split(separator: "\n").contains("Threads:\t1"),
                "the stimulus: as nobody, at the limit, no thread made: \(running)")
        kill(bridge, SIGINT)
        let text = String(decoding: shown.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        terminal.waitUntilExit()
        #expect(text.contains(#"{"event":"listening""#) && text.contains(#""event":"stopping""#), "\(text)")
    }
}
