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
        #expect(pen?["kind"] as? String == "pen", "\(String(describing: pen))")
        #expect(pen?["driver"] as? String == "wacom" && pen?["type"] as? String == "STYLUS", "\(String(describing: pen))")
        #expect(RealDriverChecks.pressureRange(pen).map { [$0.min, $0.max] } == [0, 65536], "\(String(describing: pen))")
        try RealDriverChecks.expectDoctor(stage, pressures: [stage.server.penDeviceName: "0..65536"], driver: .wacom)
    }

    @Test("the pen's deep press right-clicks, with no left click")
    func penDeepPress() throws {
        let stage = try RealDriverStage(.wacom)
        defer { stage.stop() }
        let bridge = try stage.bridge()
        try RealDriverChecks.expectPenDeepPress(stage, bridge, at: (400, 300))
        try RealDriverChecks.expectPenDeepPress(stage, bridge, at: (600, 500))
        RealDriverChecks.expectNoFault(bridge)
    }

    @Test("a tap, a drag and a light held press arrive as the pen's own")
    func penInputIsItsOwn() throws {
        let stage = try RealDriverStage(.wacom)
        defer { stage.stop() }
        let bridge = try stage.bridge()
        try RealDriverChecks.expectPenInputIsItsOwn(stage, bridge, penName: stage.server.penDeviceName)
        RealDriverChecks.expectNoFault(bridge)
    }

    @Test("the default config's volume knob turns with the pen")
    func knob() throws {
        let stage = try RealDriverStage(.wacom)
        defer { stage.stop() }
        let bridge = try stage.bridge()
        try RealDriverChecks.expectKnobTurns(stage, bridge)
        RealDriverChecks.expectNoFault(bridge)
    }
}
