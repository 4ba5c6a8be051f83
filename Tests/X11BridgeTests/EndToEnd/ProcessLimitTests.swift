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
}
