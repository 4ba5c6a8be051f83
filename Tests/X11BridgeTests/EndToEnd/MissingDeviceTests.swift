import Foundation
import GestureKit
import Glibc
import Testing
import XorgTestSupport

/// A binding naming a device that is not connected (a typo, a renamed device) listens to
/// nothing: `run` says so, as it does of a knob's missing monitor (`MonitorTests`), at start,
/// after a reload and when the devices change, naming the binding, the name and the devices
/// connected, with the nearest of them when one is close.
@Suite("A binding naming a device that is not connected is warned of", .requiresXorg, .serialized)
final class MissingDeviceTests: StageSuite {
    let directory: LiveConfigTests.ConfigDirectory

    override init() throws {
        directory = try LiveConfigTests.ConfigDirectory()
        try super.init()
    }

    /// A deep press for the device named `pen`, and a long press for the one named `other`.
    static func config(pen: String, other: String) -> String {
        """
        decision-timeout: 5
        bindings:
          - name: pen-menu
            gesture: deep-press
            devices: [{name: "\(pen)"}]
            action: {click: right}
          - name: tablet-hold
            gesture: long-press
            devices: [{name: "\(other)"}]
            action: {click: middle}
        """
    }

    /// Found in review: a device name misspelt in the config was dropped without a word, the
    /// pen falling back to nothing at all.
    @Test("a misspelt device name is warned of at start with the binding, the name, the devices connected and the nearest name; not again while nothing changes, a reload of the same config included; a reload fixing it ends it")
    func misspeltThenFixed() throws {
        try directory.writeNew(Self.config(pen: "test-pne", other: "Wacom Intuos S Pen stylus"))
        let bridge = try stage.bridge(["--config", directory.file])
        #expect(bridge.waitForEvents(.deviceMissing, count: 2), "\(bridge.lines)")
        let missing = bridge.events(.deviceMissing)
        #expect(missing.map(\.binding) == ["pen-menu", "tablet-hold"])
        #expect(missing.map(\.name) == ["test-pne", "Wacom Intuos S Pen stylus"])
        #expect(missing.map(\.connected) == Array(repeating: [VirtualPen.deviceName, VirtualTouchscreen.deviceName], count: 2))
        #expect(missing.map(\.suggestion) == [VirtualPen.deviceName, nil])
        // The pen's deep press is nobody's: the application gets its press.
        try stage.expectDeepPress(at: (200, 200), gives: 1, not: 3)

        // The touchscreen goes and comes back: the same names are missing, the same name is
        // nearest, and nothing is said again.
        try ReplugOwnershipTests.unplug(VirtualTouchscreen.deviceName, on: stage, bridge)
        try ReplugOwnershipTests.plugBack(VirtualTouchscreen.deviceName, on: stage, bridge)
        #expect(!bridge.waitForEvents(.deviceMissing, count: 3, timeout: 0.3), "\(bridge.lines)")
        // The same config read again (a script reloading it): nothing said again.
        bridge.child.kill(signal: SIGHUP)
        #expect(LiveConfigTests.reloaded(bridge, directory.file), "\(bridge.log)")
        #expect(!bridge.waitForEvents(.deviceMissing, count: 3, timeout: 0.3), "\(bridge.lines)")

        try directory.replaceByRename(Self.config(pen: VirtualPen.deviceName, other: VirtualTouchscreen.deviceName))
        #expect(LiveConfigTests.reloaded(bridge, directory.file, count: 2), "\(bridge.log)")
        #expect(!bridge.waitForEvents(.deviceMissing, count: 3, timeout: 0.3), "\(bridge.lines)")
        try stage.expectDeepPress(at: (250, 200), gives: 3, not: 1)
        ReplugOwnershipTests.expectNoFault(bridge)
        #expect(bridge.stop(with: SIGINT) == 0)
    }

    /// Found in review of a shared lab: a server whose VT is switched away from disables its
    /// devices, and every switch warned that the tablet was not connected. (A device removed
    /// is warned of: `misspeltThenFixed`'s names are of devices not there at all.)
    @Test("a named device disabled (a VT switched away, a tablet switched off) is connected: not warned of at start, nor as it is disabled again; its bindings act once it is enabled")
    func disabledIsConnected() throws {
        #expect(try stage.runTool("/usr/bin/xinput", ["disable", VirtualPen.deviceName]) == 0)
        try directory.writeNew(Self.config(pen: VirtualPen.deviceName, other: VirtualTouchscreen.deviceName))
        let bridge = try stage.bridge(["--no-watch", "--config", directory.file])
        #expect(bridge.events(.listening).count == 1, "\(bridge.lines)")
        // doctor says it as run counts it: switched off, not missing.
        let doctor = try BridgeProcess(["doctor", "--json", "--config", directory.file], server: stage.server, ready: .immediately)
        _ = doctor.child.waitForExit(timeout: 10)
        let findings = doctor.child.output.split(separator: "\n").compactMap { try? JSONDecoder().decode(DoctorFindingLine.self, from: Data($0.utf8)) }
        #expect(!findings.contains { $0.check == .missingDevice && $0.device == VirtualPen.deviceName }, "\(findings)")
        #expect(findings.contains { $0.check == .switchedOff && $0.device == VirtualPen.deviceName }, "\(findings)")

        try ReplugOwnershipTests.plugBack(VirtualPen.deviceName, on: stage, bridge)
        try stage.expectDeepPress(at: (200, 200), gives: 3, not: 1)
        try ReplugOwnershipTests.unplug(VirtualPen.deviceName, on: stage, bridge)
        #expect(bridge.events(.deviceDisabled).map(\.name) == [VirtualPen.deviceName], "its own stimulus: \(bridge.lines)")
        bridge.child.kill(signal: SIGHUP)
        #expect(bridge.waitForEvents(.configReloaded), "\(bridge.lines)")
        #expect(!bridge.waitForEvents(.deviceMissing, timeout: 0.3), "\(bridge.lines)")
        ReplugOwnershipTests.expectNoFault(bridge)
        #expect(bridge.stop(with: SIGINT) == 0)
    }

    /// Found in review of fast user switching: with the session switched away from, every device
    /// disabled, doctor said no pen, touchscreen or mouse was connected, a PROBLEM, status 1.
    @Test("doctor on a display switched away from (every device disabled): they are said switched off, nothing is a problem")
    func doctorWhileSwitchedAway() throws {
        let names = [VirtualPen.deviceName, VirtualTouchscreen.deviceName]
        for name in names { #expect(try stage.runTool("/usr/bin/xinput", ["disable", name]) == 0) }
        defer { for name in names { _ = try? stage.runTool("/usr/bin/xinput", ["enable", name]) } }
        let doctor = try BridgeProcess(["doctor", "--json"], server: stage.server, ready: .immediately)
        let status = doctor.child.waitForExit(timeout: 10)
        let findings = doctor.child.output.split(separator: "\n").compactMap { try? JSONDecoder().decode(DoctorFindingLine.self, from: Data($0.utf8)) }
        #expect(!findings.contains { $0.check == .noDevices }, "\(findings)")
        let off = findings.filter { $0.check == .switchedOff }
        #expect(off.count == 1 && names.allSatisfy { name in off.contains { $0.message.contains(name) } }, "\(findings)")
        #expect(status == 0, "\(findings)")
    }
}
