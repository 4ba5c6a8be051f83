import Testing
import XorgTestSupport

@Suite struct KeyboardRecordingTests {
    @Test(.requiresXorg) func keyTapReachesTheFocusedWindowWithItsKeysym() throws {
        let server = try HeadlessXorg()
        defer { server.stop() }
        let app = try RecorderWindow(server: server)
        defer { app.close() }

        let returnKey: Int32 = 36
        try server.keyboard.tap(keycode: returnKey)
        let keys = app.events { $0.contains { $0.kind == .keyRelease } }
            .filter { $0.kind == .keyPress || $0.kind == .keyRelease }
        #expect(keys.map(\.kind) == [.keyPress, .keyRelease])
        #expect(keys.allSatisfy { $0.detail == returnKey && $0.keysymName == "Return" })
    }
}
