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
}
