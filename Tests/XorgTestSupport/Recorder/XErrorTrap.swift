import CX11
import Synchronization

/// Errors that arrived on recorder connections, with the address of their Display.
private let caughtXErrors = Mutex<[(display: UInt, error: RecorderProtocolError)]>([])
private let chainedErrorHandler = Mutex<XErrorHandler?>(nil)

/// Collects X protocol errors (BadAccess, BadValue...) on the recorders' connections instead
/// of Xlib's default handler, which ends the process.
///
/// The handler is process-wide, so it is installed once and stays: errors on any other
/// connection (the bridge under test) go on to whatever handler was installed before, exactly
/// as if this one were not there. Swapping handlers in and out per call would race between
/// test threads and could leave the bridge without its own.
enum XErrorTrap {
    static func collectingErrors(on display: OpaquePointer, _ body: () -> Void) -> [RecorderProtocolError] {
        installProcessHandler()
        body()
        XSync(display, 0)
        return takeErrors(of: display)
    }

    /// Forgets what a closed connection left behind.
    static func discardErrors(of display: OpaquePointer) {
        _ = takeErrors(of: display)
    }

    private static func takeErrors(of display: OpaquePointer) -> [RecorderProtocolError] {
        let address = XConnectionLossGuard.address(of: display)
        return caughtXErrors.withLock { caught in
            let mine = caught.filter { $0.display == address }.map(\.error)
            caught.removeAll { $0.display == address }
            return mine
        }
    }

    private static func installProcessHandler() {
        let handler: XErrorHandler = { display, event in
            guard let display, XConnectionLossGuard.isGuarded(display) else {
                if let chained = chainedErrorHandler.withLock({ $0 }) {
                    return chained(display, event)
                }
                return 0
            }
            if let event {
                let error = RecorderProtocolError(
                    errorCode: event.pointee.error_code, requestCode: event.pointee.request_code,
                    minorCode: event.pointee.minor_code, resourceID: event.pointee.resourceid)
                caughtXErrors.withLock { $0.append((XConnectionLossGuard.address(of: display), error)) }
            }
            return 0
        }
        installChaining(handler, keepingIn: chainedErrorHandler, through: { XSetErrorHandler($0) })
    }
}
