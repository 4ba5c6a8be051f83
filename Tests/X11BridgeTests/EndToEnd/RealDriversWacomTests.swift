import Foundation
import Testing
import XorgTestSupport

/// xf86-input-wacom on an emulated ISDv4-like Wacom pen (vendor 0x056a): "Abs Pressure"
/// 0...65536 on valuator 2, type STYLUS, and button 1 pressed by the driver itself when the
/// pressure passes its threshold.
@Suite("Real drivers: xf86-input-wacom", .requiresXorg, .serialized)
struct RealDriversWacomTests {
    @Test("devices --json and doctor: the pen is a wacom STYLUS with pressure 0..65536")
    func devicesAndDoctor() throws {
        let stage = try RealDriverStage(.wacom)
        defer { stage.stop() }
        let pen = try stage.listedDevices()[stage.server.penDeviceName]
        #expect(pen?.kind == "pen", "\(String(describing: pen))")
        #expect(pen?.driver == "wacom" && pen?.type == "STYLUS", "\(String(describing: pen))")
        #expect(RealDriverChecks.pressureRange(pen).map { [$0.min, $0.max] } == [0, 65536], "\(String(describing: pen))")
        try RealDriverChecks.expectDoctor(stage, pressures: [stage.server.penDeviceName: "0..65536"], driver: .wacom)
    }

    /// Found in review: a device list read while the pen was relative dropped it, and setting
    /// it back sends no event: the pen stayed unheard until the next hot-plug. A pen relative
    /// as the bridge started was never heard at all.
    @Test("the pen set to relative mode (xsetwacom), then back to absolute: its first tap after is the application's, and its deep presses right-click again",
          arguments: [false, true])
    func relativeAndBack(beforeStart: Bool) throws {
        let stage = try RealDriverStage(.wacom)
        defer { stage.stop() }
        let pen = stage.server.penDeviceName
        func tool(_ executable: String, _ arguments: [String]) throws -> Int32? {
            try ChildProcess(executable: executable, arguments: arguments,
                             environment: BridgeProcess.environment(stage.server.displayName)).waitForExit(timeout: 5)
        }
        if beforeStart { #expect(try tool("/usr/bin/xsetwacom", ["set", pen, "Mode", "Relative"]) == 0) }
        let bridge = try stage.bridge()
        if beforeStart {
            #expect(bridge.events(.listening).first?.devices?.contains { $0.name == pen } == false, "\(bridge.lines)")
        } else {
            try RealDriverChecks.expectPenDeepPress(stage, bridge, at: (400, 300))
            #expect(try tool("/usr/bin/xsetwacom", ["set", pen, "Mode", "Relative"]) == 0)
            // Any device coming or going meanwhile (a mouse waking, a dock): a master pair made and removed.
            #expect(try tool("/usr/bin/xinput", ["create-master", "dock"]) == 0)
            #expect(try tool("/usr/bin/xinput", ["remove-master", "dock pointer"]) == 0)
            #expect(bridge.waitForLines { $0.events(.deviceRemoved).contains { $0.name == pen } }, "\(bridge.lines)")
        }
        let added = bridge.events(.deviceAdded).count
        #expect(try tool("/usr/bin/xsetwacom", ["set", pen, "Mode", "Absolute"]) == 0)
        stage.window.drain()
        try stage.pen.hover(to: (420, 320))
        try stage.pen.down(at: (420, 320), pressure: 0.3)
        try stage.pen.up()
        try stage.pen.leave()
        #expect(bridge.waitForLines { $0.events(.deviceAdded).count > added && $0.events(.deviceAdded).last?.device?.name == pen },
                "\(bridge.lines)")
        let tap = stage.window.events(waitingUpTo: 3) { buttonEvents(1, in: $0).count >= 2 }
        #expect(buttonEvents(1, in: tap).map(\.kind) == [.buttonPress, .buttonRelease], "the tap, whole: \(tap)")
        try RealDriverChecks.expectPenDeepPress(stage, bridge, at: (440, 330))
    }
}
