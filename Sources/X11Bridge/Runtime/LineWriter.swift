import Glibc

/// Writes whole lines straight to a descriptor, unbuffered, so a reader on a pipe sees each
/// gesture as it happens, and reports failure (a closed pipe, a full disk) instead of dying
/// of SIGPIPE with a button held.
public final class LineWriter {
    public let descriptor: Int32
    private let ownsDescriptor: Bool
    public private(set) var failure: String?

    public init(descriptor: Int32, ownsDescriptor: Bool = false) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
    }

    public static var standardOutput: LineWriter { LineWriter(descriptor: 1) }

    /// Creates or truncates the file at `path`.
    public static func create(path: String) throws(LineWriterError) -> LineWriter {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw LineWriterError(path: path, reason: String(cString: strerror(errno)))
        }
        return LineWriter(descriptor: descriptor, ownsDescriptor: true)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// False once a write has failed; later lines are dropped.
    @discardableResult
    public func write(_ line: String) -> Bool {
        guard failure == nil else { return false }
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                failure = String(cString: strerror(errno))
                return false
            }
            offset += written
        }
        return true
    }
}
