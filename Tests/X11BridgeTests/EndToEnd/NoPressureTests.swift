import Foundation
import Glibc
import Testing

@Suite("Without a pressure device", .requiresXvfb)
struct NoPressureTests {
    @Test("the bridge says it still serves the bindings that need no pressure")
    func servesTheRest() throws {
        let server = try VirtualFramebuffer()
        defer { server.stop() }
        let config = """
            bindings:
              - name: hard-press
                gesture: deep-press
                action: {click: right}
              - name: mouse-wheel
                gesture: knob
                devices: [mouse]
                center: [100, 100]
                outer-radius: 80
                clockwise: {scroll: down}
                counterclockwise: {scroll: up}
            """
        let bridge = try BridgeProcess(["run", "--json", "--config", try temporaryConfig(config)], displayName: server.displayName)
        let devices = bridge.events(.listening).first?.devices ?? []
        #expect(!devices.isEmpty && devices.allSatisfy { $0.pressure == nil }, "no device reports pressure: \(devices)")
        let mouse = try #require(bridge.device(named: "Xvfb mouse"), "\(devices)")
        #expect(mouse.kind == "mouse" && mouse.listened == true, "\(mouse)")
        #expect(mouse.bindings == ["mouse-wheel"], "only the binding that needs no pressure: \(mouse)")
        let served = Set(devices.flatMap { $0.bindings ?? [] })
        #expect(served == ["mouse-wheel"], "\(devices)")
        #expect(bridge.stop(with: SIGINT) == 0)
    }
}
