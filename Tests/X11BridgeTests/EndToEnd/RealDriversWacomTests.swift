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

    /// A bridge on `stage`, and the pen put down at (400, 300) at `pressure`, the window's record
    /// empty before it; with the pen's device id.
    static func penDown(on stage: RealDriverStage, pressure: Double) throws -> (BridgeProcess, Int32) {
        let bridge = try stage.bridge()
        let pen = try stage.serverDeviceID(stage.server.penDeviceName)
        stage.window.drain()
        try stage.pen.hover(to: (400, 300))
        try stage.pen.down(at: (400, 300), pressure: pressure)
        return (bridge, pen)
    }

    /// Found in review: the hold froze only the master pointer, so a window that reads the pen's
    /// own device (XI2 for every device: Qt 5 for tablets; GTK 2's extension events: GIMP 2.10)
    /// got the pen's press at touch-down, its motion, and then the bridge's right-click with
    /// button 1 still down: a dot painted and a menu opened mid-stroke.
    @Test("a window that reads the pen's own device: a deep press reaches it as the right-click only, nothing of the pen")
    func deepPressOnSlaveListener() throws {
        let stage = try RealDriverStage(.wacom, windowDevices: .all)
        defer { stage.stop() }
        let (bridge, pen) = try Self.penDown(on: stage, pressure: 0.1)
        for force in [0.2, 0.35, 0.5, 0.65, 0.8, 0.95] {
            usleep(15_000)
            try stage.pen.press(to: force)
        }
        #expect(stage.window.waitForEvents(upTo: 4) { buttonEvents(3, in: $0).count >= 2 }, "\(bridge.lines)")
        try stage.pen.up()
        try stage.pen.leave()
        let all = stage.window.events(arrivingWithin: 0.3)
        let ownDevice = all.filter { $0.deviceID == pen }
        #expect(stage.window.pointerState()?.buttonsHeld == [])
        withKnownIssue("the hold freezes only the master: the pen's own device delivers at once, and the claim's detach meets the window's implicit grab on it") {
            #expect(buttonEvents(1, in: ownDevice).isEmpty, "nothing of the pen's press on its own device: \(ownDevice)\n\(bridge.lines)")
            #expect(buttonEvents(1, in: all).isEmpty, "no left press: \(all)")
            // The right-click through the master too, where a window that reads only the masters
            // (or core events) gets it.
            #expect(buttonEvents(3, in: all.filter { $0.deviceID == RecorderWindow.corePointer }).map(\.kind) == [.buttonPress, .buttonRelease],
                    "\(all)")
            RealDriverChecks.expectNoFault(bridge)
        }
    }

    /// The same window and a light press held still (0.3): nothing of it reaches the pen's own
    /// device before the bridge decides (0.5 s, `decision-timeout`); then the whole press does,
    /// on the pen's device and the master, pressure included.
    @Test("a window that reads the pen's own device: a light press held still reaches it only once the bridge hands it over, whole")
    func heldLightPressOnSlaveListener() throws {
        let stage = try RealDriverStage(.wacom, windowDevices: .all)
        defer { stage.stop() }
        let (bridge, pen) = try Self.penDown(on: stage, pressure: 0.3)
        // Well before the decision: nothing of the press from any device.
        let early = stage.window.events(arrivingWithin: 0.3)
        withKnownIssue("the hold freezes only the master: the pen's own device delivers its press at touch-down") {
            #expect(buttonEvents(1, in: early).isEmpty, "before the decision: \(early)\n\(bridge.lines)")
        }
        usleep(300_000)
        try stage.pen.press(to: 0.31)
        #expect(bridge.ownership { $0.ownership == .replayed } != nil, "\(bridge.lines)")
        try stage.pen.up()
        try stage.pen.leave()
        let all = stage.window.events(waitingUpTo: 3) { events in
            buttonEvents(1, in: events.filter { $0.deviceID == pen }).count >= 2
                && buttonEvents(1, in: events.filter { $0.deviceID == RecorderWindow.corePointer }).count >= 2
        }
        for device in [pen, RecorderWindow.corePointer] {
            let events = all.filter { $0.deviceID == device && $0.sourceID == pen }
            #expect(buttonEvents(1, in: events).map(\.kind) == [.buttonPress, .buttonRelease], "device \(device): \(all)\n\(bridge.lines)")
            #expect(events.first { $0.kind == .buttonPress }.flatMap(\.pressure).map { $0 > 0 } == true,
                    "the press's pressure, device \(device): \(events)")
        }
        #expect(buttonEvents(3, in: all).isEmpty && stage.window.pointerState()?.buttonsHeld == [], "\(all)")
        RealDriverChecks.expectNoFault(bridge)
    }
}
