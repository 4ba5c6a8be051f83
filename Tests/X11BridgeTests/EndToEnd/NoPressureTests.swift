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
        let bridge = try BridgeProcess(["run", "--config", try temporaryConfig(config)], displayName: server.displayName)
        #expect(bridge.waitForLog(containing: "serving the bindings that need none (mouse-wheel)"))
        #expect(bridge.log.contains("\"Xvfb mouse\": mouse, no pressure, bindings: mouse-wheel"))
        #expect(bridge.stop(with: SIGINT) == 0)
    }
}
