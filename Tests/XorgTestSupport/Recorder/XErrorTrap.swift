import CX11
import Synchronization

/// Errors caught while a trap is set, with the address of the Display they came on.
private let caughtXErrors = Mutex<[(display: UInt, error: XProtocolError)]>([])

/// Runs X requests with an error handler that records errors instead of Xlib's default, which
/// ends the process. The previous handler is put back afterwards, so code under test that
/// installs its own handler keeps it.
enum XErrorTrap {
    static func collectingErrors(on display: OpaquePointer, _ body: () -> Void) -> [XProtocolError] {
        let previous = XSetErrorHandler { display, event in
            guard let event else { return 0 }
            let error = XProtocolError(
                errorCode: event.pointee.error_code, requestCode: event.pointee.request_code,
                minorCode: event.pointee.minor_code, resourceID: event.pointee.resourceid)
            let address = display.map { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer($0))) } ?? 0
            caughtXErrors.withLock { $0.append((address, error)) }
            return 0
        }
        body()
        XSync(display, 0)
        XSetErrorHandler(previous)
        let address = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))
        return caughtXErrors.withLock { caught in
            let mine = caught.filter { $0.display == address }.map(\.error)
            caught.removeAll { $0.display == address }
            return mine
        }
    }
}
