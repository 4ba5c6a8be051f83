import CX11
import Glibc
import Testing
@testable import X11Bridge

@Suite("The contact bell on a virtual framebuffer", .requiresXvfb)
struct ContactBellTests {
    /// Xvfb, a connection that clicks through XTest, and a bell listening to nothing yet.
    final class Setup {
        let server: VirtualFramebuffer
        let connection: XConnection
        let bell: ContactBell
        /// The XTEST pointer, where the clicks come from, and the XTEST keyboard.
        let pointer: Int
        let keyboard: Int

        init() throws {
            server = try VirtualFramebuffer()
            connection = try XConnection.open(name: server.displayName, requirements: .init(xtest: true))
            bell = try #require(ContactBell(displayName: server.displayName, root: UInt32(connection.root)))
            let devices = DeviceCatalog.query(connection).devices
            pointer = try #require(devices.first { $0.name == "Virtual core XTEST pointer" }?.id)
            keyboard = try #require(devices.first { $0.name == "Virtual core XTEST keyboard" }?.id)
        }

        deinit {
            connection.close()
            server.stop()
        }

        /// Listens to `devices`, in place before anything sent after it.
        func listen(to devices: Set<Int>) {
            bell.listen(to: devices)
            bell.confirm()
        }

        func button(pressed: Bool) {
            XTestFakeButtonEvent(connection.display, 1, pressed ? 1 : 0, 0)
            connection.flush()
        }

        /// The XTEST pointer's button pressed (or released) rings the bell: its connection has
        /// something to read, and taking it says it rang.
        func expectButtonRings(pressed: Bool, sourceLocation: SourceLocation = #_sourceLocation) {
            button(pressed: pressed)
            #expect(readable(), sourceLocation: sourceLocation)
            #expect(bell.take() == true, sourceLocation: sourceLocation)
        }

        /// Whether the bell's connection has something to read within `seconds`.
        func readable(within seconds: Double = 2) -> Bool {
            var descriptor = pollfd(fd: bell.fileDescriptor, events: Int16(POLLIN), revents: 0)
            return poll(&descriptor, 1, Int32(seconds * 1000)) == 1
        }
    }

    @Test("rings for a listened device's press and release; a device no longer listened to, such as the one the bridge's own clicks come from, does not wake it")
    func ringsForListenedDevices() throws {
        let setup = try Setup()
        setup.listen(to: [setup.pointer])

        // Nothing happened: nothing to read, no ring.
        #expect(!setup.readable(within: 0.05))
        #expect(setup.bell.take() == false)

        for pressed in [true, false] {
            setup.expectButtonRings(pressed: pressed)
        }

        // Listening to other devices only (the bridge's contact sources), the XTEST pointer's
        // click is not heard: the bridge's own clicks and scroll steps never end its lulls.
        setup.listen(to: [setup.keyboard])
        setup.button(pressed: true)
        setup.button(pressed: false)
        #expect(!setup.readable(within: 0.2))
        #expect(setup.bell.take() == false)
    }

    @Test("motion does not wake it")
    func motionIsQuiet() throws {
        let setup = try Setup()
        setup.listen(to: [setup.pointer])
        for step in 0..<50 {
            XTestFakeMotionEvent(setup.connection.display, -1, 100 + Int32(step), 100, 0)
        }
        setup.connection.flush()
        #expect(!setup.readable(within: 0.2))
        // The server did take the motion: a click after it rings.
        setup.expectButtonRings(pressed: true)
    }

    @Test("a device gone before its request arrives fails that request alone, and the error does not ring")
    func goneDevice() throws {
        let setup = try Setup()
        setup.bell.listen(to: [setup.pointer, 120])
        #expect(setup.readable())
        #expect(setup.bell.take() == false)
        setup.expectButtonRings(pressed: true)
    }

    @Test("a server that goes away breaks it: readable, and taking says so instead of ringing forever")
    func serverGone() throws {
        let setup = try Setup()
        setup.server.stop()
        #expect(setup.readable())
        #expect(setup.bell.take() == nil)
    }

    @Test("no server: no bell, and no crash")
    func noServer() {
        #expect(ContactBell(displayName: ":4093", root: 0) == nil)
    }
}
