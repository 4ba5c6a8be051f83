import CX11
import Foundation
import X11Bridge
import XorgTestSupport

/// The cheapest X client that reads what the bridge reads from a pen: it makes the bridge's
/// selection for the pen, waits in poll and takes each event from XCB without looking at it. Its
/// CPU share under the 1000 Hz stream is the floor of any program that reacts to every sample
/// on this machine (a wakeup, a poll, a read), the reference the bridge's own share is set
/// against, as the pen button is for latency. `gesture-measure --reference-reader` runs it on
/// the display in DISPLAY; the measurement starts it as a child.
enum ReferenceReader {
    static func run() -> Never {
        guard let display = XOpenDisplay(nil) else { fail("cannot open the display") }
        XSetEventQueueOwner(display, XCBOwnsEventQueue)
        var opcode: Int32 = 0
        var firstEvent: Int32 = 0
        var firstError: Int32 = 0
        var major: Int32 = 2
        var minor: Int32 = 2
        guard XQueryExtension(display, "XInputExtension", &opcode, &firstEvent, &firstError) != 0,
              XIQueryVersion(display, &major, &minor) == Success else { fail("no XInput 2.2") }
        guard let pen = penDevice(display) else { fail("no device named \(VirtualPen.deviceName)") }
        // Exactly what the bridge selects for a pen.
        for selection in XI2EventMask.listening(toRawInputOf: [Int(pen)]) {
            var bits = selection.bytes
            bits.withUnsafeMutableBufferPointer { bytes in
                var mask = XIEventMask(deviceid: selection.device, mask_len: Int32(bytes.count), mask: bytes.baseAddress)
                _ = XISelectEvents(display, XDefaultRootWindow(display), &mask, 1)
            }
        }
        XSync(display, 0)
        FileHandle.standardError.write(Data("reference reader listening to \(VirtualPen.deviceName)\n".utf8))
        let connection = XGetXCBConnection(display)
        var descriptor = pollfd(fd: xcb_get_file_descriptor(connection), events: Int16(POLLIN), revents: 0)
        while true {
            _ = poll(&descriptor, 1, -1)
            var event = xcb_poll_for_event(connection)
            if event == nil, xcb_connection_has_error(connection) != 0 { exit(0) }
            while let current = event {
                free(current)
                event = xcb_poll_for_queued_event(connection)
            }
        }
    }

    private static func penDevice(_ display: OpaquePointer) -> Int32? {
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display, XIAllDevices, &count) else { return nil }
        defer { XIFreeDeviceInfo(devices) }
        for index in 0..<Int(count) where devices[index].use == XISlavePointer {
            if let name = devices[index].name, String(cString: name) == VirtualPen.deviceName { return devices[index].deviceid }
        }
        return nil
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("gesture-measure --reference-reader: \(message)\n".utf8))
        exit(1)
    }
}
