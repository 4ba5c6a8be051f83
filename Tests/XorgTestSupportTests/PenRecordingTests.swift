import Testing
import XorgTestSupport

@Suite struct PenRecordingTests {
    @Test(.requiresXorg) func penDownPressesButtonOneWithItsPressureAndUpReleasesIt() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let app = try RecorderWindow(server: server, wmClass: ("sketch", "Sketch"))
        defer { app.close() }

        try server.pen.down(at: (100, 120), pressure: 0.5)
        let press = try #require(app.events(ofKind: .buttonPress).first)
        #expect(press.button == 1)
        #expect(press.rootX == 100 && press.rootY == 120)
        #expect(press.windowX == 100 && press.windowY == 120)
        #expect(press.deviceID == 2, "delivered through the core pointer")
        #expect(press.sourceID != press.deviceID)
        #expect(try #require(press.value(labeled: RecordedEvent.penPressureLabel)) == 500)
        #expect(!press.isSendEvent)
        #expect(server.pen.isTipDown)
        #expect(app.pointerState()?.buttonsHeld == [1])

        try server.pen.up()
        let release = try #require(app.events(ofKind: .buttonRelease).first)
        #expect(release.button == 1)
        #expect(release.rootX == 100 && release.rootY == 120)
        #expect(release.time >= press.time)
        #expect(app.pointerState()?.buttonsHeld == [])
    }

    @Test(.requiresXorg) func pressingHarderWhileMovingReportsRisingPressure() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let app = try RecorderWindow(server: server)
        defer { app.close() }

        try server.pen.down(at: (200, 200), pressure: 0.2)
        try server.pen.move(to: (210, 205), pressure: 0.6)
        try server.pen.move(to: (220, 210), pressure: 1.0)
        let motions = app.events { events in events.contains { $0.kind == .motion && $0.rootX == 220 } }
            .filter { $0.kind == .motion && $0.buttonsHeld == [1] }
        #expect(motions.compactMap(\.pressure) == [600, 1000])
        #expect(motions.last?.rootY == 210)
    }

    @Test(.requiresXorg) func hoverMovesThePointerWithoutPressingAButton() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let app = try RecorderWindow(server: server, frame: WindowFrame(x: 100, y: 100, width: 300, height: 200))
        defer { app.close() }

        try server.pen.hover(to: (150, 130))
        let motion = try #require(app.events(ofKind: .motion).last)
        #expect(motion.rootX == 150 && motion.rootY == 130)
        #expect(motion.windowX == 50 && motion.windowY == 30, "relative to the window at (100, 100)")
        #expect(app.drain().allSatisfy { $0.kind == .motion })
        #expect(app.pointerState() == CorePointerState(rootX: 150, rootY: 130, buttonsHeld: []))
    }
}
