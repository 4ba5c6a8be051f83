import CX11
import Synchronization

/// Where Xlib's error callback leaves the errors it receives, per display.
///
/// Xlib's default handler prints the error and exits, which would leave any button the bridge
/// pressed held down. The callback is a C function that cannot capture context, so the
/// errors go into this process-wide log, keyed by the display's address.
enum XErrorLog {
    /// Enough to diagnose a burst without growing without bound when nobody collects.
    static let capacity = 64

    static let entries = Mutex<[UInt: [XProtocolError]]>([:])
    /// How many errors `entries` holds, readable without the lock: the event loop asks on every
    /// wakeup, and nearly always the answer is none.
    static let count = Atomic<Int>(0)

    static func install() {
        _ = XSetErrorHandler(recordXError)
    }

    static func record(_ error: XProtocolError, display: UInt) {
        entries.withLock { entries in
            var list = entries[display] ?? []
            if list.count < capacity {
                list.append(error)
                count.add(1, ordering: .relaxed)
            }
            entries[display] = list
        }
    }

    /// Xlib's name for an error code (`BadValue (integer parameter out of range for operation)`).
    static func text(display: OpaquePointer, code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 160)
        XGetErrorText(display, code, &buffer, Int32(buffer.count))
        return buffer.withUnsafeBufferPointer { pointer in
            pointer.baseAddress.map { String(cString: $0) } ?? "error \(code)"
        }
    }

    static func hasErrors(display: UInt) -> Bool {
        guard count.load(ordering: .relaxed) > 0 else { return false }
        return entries.withLock { $0[display]?.isEmpty == false }
    }

    /// Drops the errors of the requests with serials in `serials`.
    static func discard(display: UInt, serials: Range<UInt>) {
        guard count.load(ordering: .relaxed) > 0 else { return }
        entries.withLock { entries in
            guard let list = entries[display] else { return }
            let kept = list.filter { !serials.contains($0.serial) }
            count.subtract(list.count - kept.count, ordering: .relaxed)
            entries[display] = kept
        }
    }

    static func take(display: UInt) -> [XProtocolError] {
        guard count.load(ordering: .relaxed) > 0 else { return [] }
        return entries.withLock { entries in
            let taken = entries.removeValue(forKey: display) ?? []
            count.subtract(taken.count, ordering: .relaxed)
            return taken
        }
    }
}

private func recordXError(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XErrorEvent>?) -> Int32 {
    guard let display, let event else { return 0 }
    let code = Int32(event.pointee.error_code)
    let text = XErrorLog.text(display: display, code: code)
    let error = XProtocolError(errorCode: Int(code), requestCode: Int(event.pointee.request_code),
                               minorCode: Int(event.pointee.minor_code), resource: UInt(event.pointee.resourceid),
                               serial: UInt(event.pointee.serial), text: text)
    XErrorLog.record(error, display: UInt(bitPattern: display))
    return 0
}
