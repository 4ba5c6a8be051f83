import CX11

/// What the XTEST devices hold for a bridge, as a property of the root window: the pointer's
/// buttons (`_GESTURE_BRIDGE_HELD_BUTTONS`) and the keyboard's keycodes
/// (`_GESTURE_BRIDGE_HELD_KEYS`), each a CARDINAL list. X keeps them held after the bridge is
/// gone, and they are all that a bridge starting after it lets go of
/// (`XTestPerformer.releaseLeftovers`).
struct HeldMark: Sendable {
    let property: String

    static let buttons = HeldMark(property: "_GESTURE_BRIDGE_HELD_BUTTONS")
    /// Keys are held only across a chord Slow Keys or Sticky Keys spread over time: a bridge
    /// killed then (the kernel short of memory) left Ctrl down for the rest of the session.
    static let keys = HeldMark(property: "_GESTURE_BRIDGE_HELD_KEYS")

    /// The buttons or keycodes the mark names; none when there is none, or it is not such a list.
    func read(on connection: XConnection) -> [Int] {
        let display = connection.display
        let atom = XInternAtom(display, property, 1)
        guard atom != 0 else { return [] }
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(display, connection.root, atom, 0, 64, 0, XA_CARDINAL,
                                        &type, &format, &count, &remaining, &data)
        defer { if let data { XFree(data) } }
        // A format-32 property comes back as C longs, whatever their size.
        guard status == Success, type == XA_CARDINAL, format == 32, let data else { return [] }
        return data.withMemoryRebound(to: UInt.self, capacity: Int(count)) { values in
            (0..<Int(count)).compactMap { index in values[index] <= 255 ? Int(values[index]) : nil }
        }
    }

    /// Marks `values` as the ones held; none removes the mark.
    func write(_ values: [Int], on connection: XConnection) {
        guard !values.isEmpty else { return clear(on: connection) }
        let display = connection.display
        let longs = values.map { UInt($0) }
        longs.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UInt8.self) { bytes in
                _ = XChangeProperty(display, connection.root, XInternAtom(display, property, 0), XA_CARDINAL, 32,
                                    PropModeReplace, bytes.baseAddress, Int32(buffer.count))
            }
        }
    }

    func clear(on connection: XConnection) {
        let atom = XInternAtom(connection.display, property, 1)
        guard atom != 0 else { return }
        XDeleteProperty(connection.display, connection.root, atom)
    }
}
