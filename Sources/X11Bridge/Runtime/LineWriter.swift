import CLinux
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

    /// Creates `path` readable and writable by the user alone (a trace holds pen strokes, which
    /// are handwriting). An existing file is an error unless `replacing`; replaced, it is
    /// emptied and made private too.
    public static func create(path: String, replacing: Bool = false) throws(LineWriterError) -> LineWriter {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (replacing ? O_TRUNC : O_EXCL)
        let descriptor = open(path, flags, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST {
                throw LineWriterError(path: path, reason: "it already exists; pass --force to replace it, or choose another name")
            }
            throw LineWriterError(path: path, reason: String(cString: strerror(code)))
        }
        if replacing, fchmod(descriptor, 0o600) != 0 {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw LineWriterError(path: path, reason: "cannot make it private (mode 0600): \(reason)")
        }
        return LineWriter(descriptor: descriptor, ownsDescriptor: true)
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// False once a write has failed; later lines are dropped.
    @discardableResult
    public func write(_ line: String) -> Bool {
        write(text: line + "\n")
    }

    /// Text as it is, with whatever line ends it holds.
    @discardableResult
    public func write(text: String) -> Bool {
        guard failure == nil else { return false }
        if let code = Self.writeWhole(Array(text.utf8), to: descriptor) {
            failure = String(cString: strerror(code))
            return false
        }
        return true
    }

    /// Writes all of `bytes` to `descriptor`, waiting as it must; the `errno` of a write that
    /// failed, nil when all went out.
    static func writeWhole(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                return code
            }
            offset += written
        }
        return nil
    }
}

extension LineWriter {
    /// Sends out what `print` left buffered for standard output; the system's words when that,
    /// or a write before it, failed (a full disk, a closed pipe), nil when all went out.
    public static func flushPrinted() -> String? {
        let stream = gesture_bridge_standard_output()
        let flushed = fflush(stream)
        let code = errno
        guard flushed != 0 || ferror(stream) != 0 else { return nil }
        return code == 0 ? "it was not written whole" : String(cString: strerror(code))
    }
}
