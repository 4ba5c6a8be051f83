import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One client connection to an inputtest device's unix socket.
///
/// The driver accepts a single connection per enable cycle and never listens again once its
/// client goes away (the server then spins on the dead socket), so a connection is opened once
/// and kept until the server has stopped.
public final class InputTestConnection {
    public let socketPath: String
    public private(set) var serverVersion: (major: UInt16, minor: UInt16) = (0, 0)
    private var socketDescriptor: Int32

    /// Connects, retrying while the socket does not exist yet or refuses, then shakes hands.
    /// `responseTimeout` bounds every later wait for an answer, so a wedged server fails a test
    /// instead of hanging it.
    public init(socketPath: String, connectTimeout: Double = 5, responseTimeout: Double = 5) throws {
        self.socketPath = socketPath
        self.socketDescriptor = try Self.connect(to: socketPath, timeout: connectTimeout)
        do {
            try setTimeouts(seconds: responseTimeout)
            try send(.clientVersion(major: InputTestMessage.protocolVersion.major, minor: InputTestMessage.protocolVersion.minor))
            let answer = try receive(byteCount: InputTestResponse.serverVersionSize)
            guard case .serverVersion(let major, let minor) = InputTestResponse(bytes: answer) else {
                throw InputTestError.unexpectedResponse(socketPath: socketPath, expected: "ServerVersion", bytes: answer)
            }
            serverVersion = (major, minor)
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    public var isOpen: Bool { socketDescriptor >= 0 }

    public func send(_ message: InputTestMessage) throws {
        guard isOpen else { throw InputTestError.closed(socketPath: socketPath) }
        let bytes = message.encoded
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                // MSG_NOSIGNAL: a server that died must fail the test, not kill it with SIGPIPE.
                Glibc.send(socketDescriptor, raw.baseAddress.map { $0 + sent }, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw InputTestError.sendFailed(socketPath: socketPath, reason: Self.errorText())
            }
            sent += result
        }
    }

    /// Returns once the server has processed every message sent before it.
    public func sync() throws {
        try send(.waitForSync)
        let answer = try receive(byteCount: InputTestResponse.syncFinishedSize)
        guard InputTestResponse(bytes: answer) == .syncFinished else {
            throw InputTestError.unexpectedResponse(socketPath: socketPath, expected: "SyncFinished", bytes: answer)
        }
    }

    /// Closing lets the driver spin on the dead socket: close only once the server is stopped.
    public func close() {
        if socketDescriptor >= 0 {
            Glibc.close(socketDescriptor)
            socketDescriptor = -1
        }
    }

    /// A new connection to the same socket, this one closed: for after `xinput disable` and
    /// `xinput enable` of the device. Disabling it closes the driver's end of the connection, and
    /// the driver takes one new client once the device is on again. Call it only once the device
    /// is enabled again, never while the old connection still works (a client that goes away
    /// under an enabled device makes the server spin).
    public func reconnected(timeout: Double = 5) throws -> InputTestConnection {
        close()
        return try InputTestConnection(socketPath: socketPath, connectTimeout: timeout)
    }

    private func receive(byteCount: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: byteCount)
        var received = 0
        while received < byteCount {
            let result = buffer.withUnsafeMutableBytes { raw in
                recv(socketDescriptor, raw.baseAddress.map { $0 + received }, byteCount - received, 0)
            }
            if result == 0 {
                throw InputTestError.receiveFailed(socketPath: socketPath, reason: "the server closed the connection")
            }
            if result < 0 {
                if errno == EINTR { continue }
                let reason = errno == EAGAIN || errno == EWOULDBLOCK ? "timed out" : Self.errorText()
                throw InputTestError.receiveFailed(socketPath: socketPath, reason: reason)
            }
            received += result
        }
        return buffer
    }

    private static func connect(to path: String, timeout: Double) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { throw InputTestError.socketPathTooLong(socketPath: path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else {
                throw InputTestError.cannotConnect(socketPath: path, reason: errorText())
            }
            let result = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if result == 0 { return descriptor }
            let failure = errno
            let reason = errorText()
            Glibc.close(descriptor)
            let mayAppearLater = failure == ENOENT || failure == ECONNREFUSED || failure == EINTR
            if !mayAppearLater || Date() >= deadline {
                throw InputTestError.cannotConnect(socketPath: path, reason: reason)
            }
            usleep(20_000)
        }
    }

    private func setTimeouts(seconds: Double) throws {
        var interval = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            guard setsockopt(socketDescriptor, SOL_SOCKET, option, &interval, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
                throw InputTestError.cannotConnect(socketPath: socketPath, reason: "setting the socket timeout failed: \(Self.errorText())")
            }
        }
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
