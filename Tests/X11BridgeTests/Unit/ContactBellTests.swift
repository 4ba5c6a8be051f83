import CX11
import Glibc
import Testing
@testable import X11Bridge

@Suite("The contact bell on a virtual framebuffer", .requiresXvfb)
struct ContactBellTests {
    /// Whether the bell's connection has something to read within `seconds`.
    static func readable(_ bell: ContactBell, within seconds: Double = 2) -> Bool {
        var descriptor = pollfd(fd: bell.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, Int32(seconds * 1000)) == 1
    }

    @Test("rings for a listened device's press and release; a device no longer listened to, such as the one the bridge's own clicks come from, does not wake it")
    func ringsForListenedDevices() throws {
        let server = try VirtualFramebuffer()
        defer { server.stop() }
        let connection = try XConnection.open(name: server.displayName, requirements: .init(xtest: true))
        defer { connection.close() }
        let bell = try #require(ContactBell(displayName: server.displayName, root: UInt32(connection.root)))
        let devices = DeviceCatalog.query(connection).devices
        let pointer = try #require(devices.first { $0.name == "Virtual core XTEST pointer" }?.id)
        let keyboard = try #require(devices.first { $0.name == "Virtual core XTEST keyboard" }?.id)
        bell.listen(to: [pointer])
        bell.confirm()

        // Nothing happened: nothing to read, no ring.
        #expect(!Self.readable(bell, within: 0.05))
        #expect(bell.take() == false)

        XTestFakeButtonEvent(connection.display, 1, 1, 0)
        connection.flush()
        #expect(Self.readable(bell))
        #expect(bell.take() == true)
        XTestFakeButtonEvent(connection.display, 1, 0, 0)
        connection.flush()
        #expect(Self.readable(bell))
        #expect(bell.take() == true)

        // Listening to other devices only (the bridge's contact sources), the XTEST pointer's
        // click is not heard: the bridge's own clicks and scroll steps never end its lulls.
        bell.listen(to: [keyboard])
        bell.confirm()
        XTestFakeButtonEvent(connection.display, 1, 1, 0)
        XTestFakeButtonEvent(connection.display, 1, 0, 0)
        connection.flush()
        #expect(!Self.readable(bell, within: 0.2))
        #expect(bell.take() == false)
    }

    @Test("motion does not wake it")
    func motionIsQuiet() throws {
        let server = try VirtualFramebuffer()
        defer { server.stop() }
        let connection = try XConnection.open(name: server.displayName, requirements: .init(xtest: true))
        defer { connection.close() }
        let bell = try #require(ContactBell(displayName: server.displayName, root: UInt32(connection.root)))
        let pointer = try #require(DeviceCatalog.query(connection).devices.first { $0.name == "Virtual core XTEST pointer" }?.id)
        bell.listen(to: [pointer])
        bell.confirm()
        for step in 0..<50 {
            XTestFakeMotionEvent(connection.display, -1, 100 + Int32(step), 100, 0)
        }
        connection.flush()
        #expect(!Self.readable(bell, within: 0.2))
        // The server did take the motion: a click after it rings.
        XTestFakeButtonEvent(connection.display, 1, 1, 0)
        XTestFakeButtonEvent(connection.display, 1, 0, 0)
        connection.flush()
        #expect(Self.readable(bell))
        #expect(bell.take() == true)
    }

    @Test("a server that goes away breaks it: readable, and taking says so instead of ringing forever")
    func serverGone() throws {
        let server = try VirtualFramebuffer()
        let connection = try XConnection.open(name: server.displayName, requirements: .init(xtest: false))
        defer { connection.close() }
        let bell = try #require(ContactBell(displayName: server.displayName, root: UInt32(connection.root)))
        server.stop()
        #expect(Self.readable(bell))
        #expect(bell.take() == nil)
    }

    @Test("a device gone before its request arrives fails that request alone, and the error does not ring")
    func goneDevice() throws {
        let server = try VirtualFramebuffer()
        defer { server.stop() }
        let connection = try XConnection.open(name: server.displayName, requirements: .init(xtest: true))
        defer { connection.close() }
        let bell = try #require(ContactBell(displayName: server.displayName, root: UInt32(connection.root)))
        let pointer = try #require(DeviceCatalog.query(connection).devices.first { $0.name == "Virtual core XTEST pointer" }?.id)
        bell.listen(to: [pointer, 120])
        #expect(Self.readable(bell))
        #expect(bell.take() == false)
        XTestFakeButtonEvent(connection.display, 1, 1, 0)
        XTestFakeButtonEvent(connection.display, 1, 0, 0)
        connection.flush()
        #expect(Self.readable(bell))
        #expect(bell.take() == true)
    }

    @Test("no server: no bell, and no crash")
    func noServer() {
        #expect(ContactBell(displayName: ":4093", root: 0) == nil)
    }
}
