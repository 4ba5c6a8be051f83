import CX11
import Synchronization

private let guardedDisplays = Mutex<Set<UInt>>([])
private let chainedIOErrorHandler = Mutex<XIOErrorHandler?>(nil)

/// Keeps a lost server connection from ending the test process.
///
/// Xlib's default I/O error handler calls exit(), and it runs before the per-display exit
/// handler, so a test whose server went away would end the whole test run. A process-wide
/// handler returns for the recorders' displays (their exit handler then only raises a flag) and
/// passes every other display on to the handler that was installed before, so code under test
/// keeps its own behaviour.
enum XConnectionLossGuard {
    static func protect(_ display: OpaquePointer, raising flag: ConnectionLossFlag) {
        guardedDisplays.withLock { _ = $0.insert(address(of: display)) }
        XSetIOErrorExitHandler(display, { _, flag in
            flag.map { Unmanaged<ConnectionLossFlag>.fromOpaque($0).takeUnretainedValue().isLost = true }
        }, Unmanaged.passUnretained(flag).toOpaque())
        installProcessHandler()
    }

    /// Call after XCloseDisplay: closing a lost connection may report the loss once more.
    static func forget(_ display: OpaquePointer) {
        guardedDisplays.withLock { _ = $0.remove(address(of: display)) }
    }

    private static func installProcessHandler() {
        let handler: XIOErrorHandler = { display in
            let isGuarded = display.map(XConnectionLossGuard.isGuarded) ?? false
            if !isGuarded, let chained = chainedIOErrorHandler.withLock({ $0 }) {
                return chained(display)
            }
            return 0
        }
        installChaining(handler, keepingIn: chainedIOErrorHandler, through: { XSetIOErrorHandler($0) })
    }

    static func isGuarded(_ display: OpaquePointer) -> Bool {
        guardedDisplays.withLock { $0.contains(address(of: display)) }
    }

    static func address(of display: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(display)))
    }
}
