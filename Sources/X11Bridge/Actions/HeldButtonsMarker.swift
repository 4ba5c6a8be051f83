import CX11

/// The XTEST pointer's buttons a bridge holds, as a property of the root window
/// (`_GESTURE_BRIDGE_HELD_BUTTONS`, CARDINAL): what X keeps held after the bridge is gone, and
/// all that a bridge starting after it lets go of (`XTestPerformer.releaseLeftovers`).
enum HeldButtonsMarker {
    static let property = "_GESTURE_BRIDGE_HELD_BUTTONS"

    /// The buttons the mark names; none when there is none, or it is not a list of buttons.
    static func read(on connection: XConnection) -> [Int] {
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

    /// Marks `buttons` as the ones held; none removes the mark.
    static func write(_ buttons: [Int], on connection: XConnection) {
        guard !buttons.isEmpty else { return clear(on: connection) }
        let display = connection.display
        let values = buttons.map { UInt($0) }
        values.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UInt8.self) { bytes in
                _ = XChangeProperty(display, connection.root, XInternAtom(display, property, 0), XA_CARDINAL, 32,
                                    PropModeReplace, bytes.baseAddress, Int32(buffer.count))
            }
        }
    }

    static func clear(on connection: XConnection) {
        let atom = XInternAtom(connection.display, property, 1)
        guard atom != 0 else { return }
        XDeleteProperty(connection.display, connection.root, atom)
    }
}
