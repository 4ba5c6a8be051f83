import Foundation
import GestureKit
import Glibc
import Testing
import XorgTestSupport

/// xf86-input-evdev and xf86-input-libinput set each device's "Device Product ID" from its
/// node's id (libinput's pen device too, added at the pen's first proximity): `devices` and
/// `doctor` show the vendor and product, and what the bridge learns of a device is kept under
/// its name and those ids, carrying over a state kept under its name alone.
@Suite("Real drivers: vendor and product ids", .requiresXorg, .serialized)
struct RealDriversLearningKeyTests {
    static func hex(_ id: UInt16) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    @Test("devices --json and doctor show the ids the emulated nodes declare; the pen's learned state is kept under its name and ids",
          arguments: [RealDriver.evdev, .libinput])
    func productIDs(driver: RealDriver) throws {
        let stage = try RealDriversPenTests.stage(driver)
        defer { stage.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-ids-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let environment = ["XDG_STATE_HOME": directory]
        func command(_ arguments: [String]) throws -> String {
            let run = try BridgeProcess(arguments, displayName: stage.server.displayName, environment: environment, ready: .immediately)
            #expect(run.child.waitForExit(timeout: 10) == 0, "\(arguments): \(run.child.output)\(run.log)")
            return run.child.output
        }
        /// A command's `--json` lines, each decoded as `Line`.
        func lines<Line: Decodable>(_ type: Line.Type, _ arguments: [String]) throws -> [Line] {
            try command(arguments).split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        }
        let penName = stage.server.penDeviceName
        let touchName = try #require(stage.server.touchDeviceName)
        let penIDs = (vendor: Self.hex(stage.pen.description.vendor), product: Self.hex(stage.pen.description.product))
        let touchDescription = try stage.touch().description
        let touchIDs = (vendor: Self.hex(touchDescription.vendor), product: Self.hex(touchDescription.product))
        let key = "\(penName) [\(penIDs.vendor):\(penIDs.product)]"

        var listed = try lines(DeviceLine.self, ["devices", "--json"])
        let pen = listed.first { $0.name == penName }
        let touch = listed.first { $0.name == touchName }
        #expect(pen?.vendor == penIDs.vendor && pen?.product == penIDs.product, "\(listed)")
        #expect(touch?.vendor == touchIDs.vendor && touch?.product == touchIDs.product, "\(listed)")
        let table = try command(["devices"])
        #expect(table.split(separator: "\n").contains { $0.contains(penName) && $0.contains("\(penIDs.vendor):\(penIDs.product)") },
                "\(table)")
        let doctor = try lines(DoctorFindingLine.self, ["doctor", "--json"])
        let penLine = doctor.first { $0.check == .pressure && $0.device == penName }?.message ?? ""
        #expect(penLine.contains("[\(penIDs.vendor):\(penIDs.product)]"), "\(doctor)")

        // What an earlier version kept under the pen's name alone: five ordinary contacts.
        let store = LearnedStateStore(directory: directory + "/gesture-bridge")
        let earlier = try #require(HandLearner(ordinaryPeaks: [0.2, 0.25, 0.2, 0.3, 0.22], deliberatePeaks: [], ordinaryContacts: 5,
                                               deliberatePresses: 0, levels: nil, moving: false, calibrated: false))
        let text = LearnedStateFile.encode(device: penName, learner: earlier).replacingOccurrences(of: "version 2\n", with: "version 1\n")
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        try text.write(toFile: store.directory + "/" + store.fileName(for: penName), atomically: true, encoding: .utf8)

        // One deep press, held on after its right-click, teaches the pen's learner a deliberate
        // press (one lifted within a tap's time waits for a dozen ordinary contacts to tell it from
        // a heavy hand's tap: `PressEvidence.quick`); the bridge keeps it as it stops.
        let bridge = try BridgeProcess(["run", "--json"], displayName: stage.server.displayName, environment: environment)
        try RealDriverChecks.expectPenDeepPress(stage, bridge, at: (400, 300), holding: 0.3)
        // Stopped only once it has read the lift: a contact still down as the bridge stops is
        // cut short, and teaches nothing (seen in CI under load: nothing learned, nothing kept).
        #expect(bridge.waitForLines { $0.gestures.contains { $0.gesture == "right-click" && $0.state == .ended } }, "\(bridge.lines)")
        bridge.child.kill(signal: SIGTERM)
        #expect(bridge.child.waitForExit(timeout: 5) == 0, "\(bridge.log)")
        RealDriverChecks.expectNoFault(bridge)

        let kept = try lines(LearnedStateLine.self, ["learned", "--json"])
        #expect(kept.map(\.device) == [key], "\(kept)")
        #expect(kept.first?.ordinaryContacts == 5 && kept.first?.deliberatePresses == 1, "\(kept)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/gesture-bridge").filter { $0.hasSuffix(".learned") }
        #expect(files == [store.fileName(for: key)], "the state under the name alone moved over to the key: \(files)")
        #expect(files.first?.contains("-\(penIDs.vendor)-\(penIDs.product)-") == true, "\(files)")

        // devices finds it for the pen.
        listed = try lines(DeviceLine.self, ["devices", "--json"])
        let learned = listed.first { $0.name == penName }?.learned?.wrappedValue
        #expect(learned?.ordinaryContacts == 5 && learned?.deliberatePresses == 1, "\(listed)")
    }
}
