import CX11
import Synchronization

/// Installs `handler` as Xlib's process-wide handler through `install` (`XSetErrorHandler`,
/// `XSetIOErrorHandler`) and keeps the handler it replaced in `chained`, to pass on what is not
/// the recorders' business. Installing it again finds itself there and keeps the first one.
func installChaining<Handler: Sendable>(_ handler: Handler, keepingIn chained: borrowing Mutex<Handler?>,
                                        through install: (Handler) -> Handler?) {
    chained.withLock { kept in
        let previous = install(handler)
        if let previous, !isSameFunction(previous, handler) {
            kept = previous
        }
    }
}

private func isSameFunction<Handler>(_ first: Handler, _ second: Handler) -> Bool {
    unsafeBitCast(first, to: UnsafeRawPointer.self) == unsafeBitCast(second, to: UnsafeRawPointer.self)
}
