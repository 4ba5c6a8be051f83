import Testing
import XorgTestSupport

@Suite struct TouchRecordingTests {
    @Test(.requiresXorg) func touchAwareWindowReceivesTheTouchSequenceWithPressure() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let app = try RecorderWindow(server: server, touchAware: true)
        defer { app.close() }

        try server.touch.begin(id: 3, at: (400, 300), pressure: 0.25)
        try server.touch.update(id: 3, to: (410, 305), pressure: 1.0)
        try server.touch.end(id: 3)
        let touches = app.events { $0.contains { $0.kind == .touchEnd } }.filter(\.kind.isTouch)

        #expect(touches.map(\.kind) == [.touchBegin, .touchUpdate, .touchEnd])
        let begin = try #require(touches.first)
        #expect(begin.rootX == 400 && begin.rootY == 300)
        #expect(begin.value(labeled: RecordedEvent.touchPressureLabel) == 512)
        #expect(touches[1].pressure == 2047)
        #expect(touches[1].rootX == 410)
        #expect(Set(touches.compactMap(\.touchID)).count == 1, "one touch sequence")
        #expect(app.drain().allSatisfy { !($0.kind == .buttonPress && $0.isPointerEmulated) })
    }

    @Test(.requiresXorg) func pointerOnlyWindowGetsAnEmulatedButtonOneClick() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let app = try RecorderWindow(server: server, touchAware: false)
        defer { app.close() }

        try server.touch.begin(at: (300, 250), pressure: 0.5)
        try server.touch.end()
        let buttons = app.events { $0.contains { $0.kind == .buttonRelease } }
            .filter { $0.kind == .buttonPress || $0.kind == .buttonRelease }

        #expect(buttons.map(\.kind) == [.buttonPress, .buttonRelease])
        #expect(buttons.allSatisfy { $0.button == 1 && $0.isPointerEmulated })
        #expect(buttons.first?.rootX == 300 && buttons.first?.rootY == 250)
        #expect(app.pointerState()?.buttonsHeld == [])
    }
}
