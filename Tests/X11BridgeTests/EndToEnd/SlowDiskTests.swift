import Foundation
import GestureKit
import Testing
import XorgTestSupport

/// A disk that takes its time: a network home folder, a disk busy writing a large copy. Found
/// in review: the bridge wrote what it learned from the event loop, so while `fsync` waited,
/// it read nothing, and every press it holds back stayed frozen (a tap, a mouse click) until
/// the disk answered.
@Suite("A slow disk", .requiresXorg, .serialized)
final class SlowDiskTests: StageSuite {
    /// Found in review of a machine short of resources: a state folder that could not be read
    /// at start (a home on a server that did not answer) was said to keep nothing, and the
    /// learning of earlier runs in it was written over at the first save.
    @Test("a state folder that cannot be read at start is never written: what earlier runs learned stays as it was")
    func unreadableFolderKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-disk-\(UUID().uuidString)").path
        let state = folder + "/state", learned = state + "/gesture-bridge"
        try FileManager.default.createDirectory(atPath: learned, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let earlier = "what an earlier run learned\n"
        try earlier.write(toFile: learned + "/earlier.learned", atomically: true, encoding: .utf8)
        // The learned state's files (the bridge's in-use mark comes and goes beside them).
        func listing() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: learned).filter { $0.hasSuffix(".learned") }.sorted()
        }
        let before = try listing()
        let bridge = try stage.bridge(environment: ["LD_PRELOAD": try PreloadShim.opendirFails.library(),
                                                    "GESTUREBRIDGE_UNLISTABLE": learned, "XDG_STATE_HOME": state])
        #expect(bridge.log.contains("cannot read the learned state"), "the stimulus: the folder could not be read: \(bridge.log)")
        for tap in 0..<3 {
            try stage.pen.down(at: (200 + 20 * Double(tap), 300), pressure: 0.08)
            try stage.pen.up()
            #expect(bridge.waitForLines { $0.decisions.count > tap }, "\(bridge.lines)")
        }
        // Stopping saves what each device learned since the start: nothing, into this folder.
        #expect(bridge.stop(with: SIGTERM) == 0, "\(bridge.log)")
        let after = try listing()
        #expect(after == before, "\(after) against \(before)")
        #expect(try String(contentsOfFile: learned + "/earlier.learned", encoding: .utf8) == earlier)
    }

    @Test("while the learned state waits on the disk, a tap reaches the window; once the disk answers, the state is kept")
    func tapWhileSaving() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-disk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gate = folder + "/gate", state = folder + "/state"
        let bridge = try stage.bridge(environment: ["LD_PRELOAD": try PreloadShim.fsyncGate.library(),
                                                    "GESTUREBRIDGE_FSYNC_GATE": gate, "XDG_STATE_HOME": state])
        // Light taps, until the levels move (the first time: after twelve) and are written.
        var taps = 0
        while bridge.lines.compactMap(\.learned).isEmpty, taps < 20 {
            try stage.pen.down(at: (200 + 20 * Double(taps), 300), pressure: 0.08)
            try stage.pen.move(to: (200 + 20 * Double(taps), 300), pressure: 0.12)
            try stage.pen.up()
            taps += 1
            #expect(bridge.waitForLines { $0.decisions.count >= taps }, "\(bridge.lines)")
            // A person's pause: taps quicker than 0.3 s apart would teach as one run
            // (`LearningRule.run`).
            usleep(350_000)
        }
        #expect(!bridge.lines.compactMap(\.learned).isEmpty, "nothing learned after \(taps) taps: \(bridge.lines)")
        #expect(Self.waitUntil { access(gate + ".waiting", F_OK) == 0 }, "the state's write is held at fsync")
        stage.window.drain()

        try stage.pen.down(at: (640, 400), pressure: 0.3)
        try stage.pen.up()
        let tapped = buttonEvents(1, in: stage.window.events { buttonEvents(1, in: $0).count >= 2 })
        #expect(tapped.map(\.kind) == [.buttonPress, .buttonRelease], "the tap while the disk is slow: \(tapped)")

        #expect(FileManager.default.createFile(atPath: gate, contents: nil))
        #expect(bridge.stop(with: SIGTERM) == 0, "\(bridge.log)")
        let listed = try BridgeProcess(["learned", "--json"], server: stage.server, environment: ["XDG_STATE_HOME": state],
                                       ready: .immediately)
        #expect(listed.child.waitForExit(timeout: 5) == 0, "\(listed.log)")
        let pen = try listed.printed(LearnedStateLine.self).first { $0.device == VirtualPen.deviceName }
        #expect(pen?.ordinaryContacts == taps + 1, "every contact kept, the last tap's too: \(listed.child.output)")
        #expect(pen?.learned == true, "\(listed.child.output)")
    }

    /// Polls `condition` every 10 ms for up to `seconds`.
    static func waitUntil(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }
}
