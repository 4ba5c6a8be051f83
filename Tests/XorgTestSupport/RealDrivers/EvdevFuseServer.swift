import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `gesture-evdev-fuse` serving emulated evdev nodes in a directory: one node per device, which
/// the unmodified X input drivers open as a kernel device, and beside it `NAME.events`, through
/// which `EvdevNode` injects events.
///
/// The server's standard input is a pipe only this process writes: if the test process dies,
/// the server reads its end, unmounts and exits. `stop()` (also run by `deinit`) ends it and
/// makes sure nothing stays mounted.
final class EvdevFuseServer {
    let mountPoint: String
    private var process: Process?
    private let lifeline = Pipe()
    private let output = Pipe()
    private let errorOutputPath: String

    /// Mounts the devices (file name → description) at `mountPoint`, an empty directory, and
    /// returns once they can be opened.
    init(executable: String, mountPoint: String, devices: [(fileName: String, description: EvdevDeviceDescription)],
         descriptionDirectory: String, timeout: Double = 5) throws {
        self.mountPoint = mountPoint
        self.errorOutputPath = descriptionDirectory + "/evdev-fuse.stderr"
        var arguments = [mountPoint]
        for device in devices {
            let path = descriptionDirectory + "/\(device.fileName).desc"
            try device.description.fileText.write(toFile: path, atomically: true, encoding: .utf8)
            arguments.append("\(device.fileName)=\(path)")
        }
        guard FileManager.default.createFile(atPath: errorOutputPath, contents: nil),
              let errorOutput = FileHandle(forWritingAtPath: errorOutputPath) else {
            throw RealDriverError.cannotPrepare(reason: "cannot create \(errorOutputPath)")
        }
        defer { try? errorOutput.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = lifeline
        process.standardOutput = output
        process.standardError = errorOutput
        try ChildProcessLauncher.run(process)
        try? lifeline.fileHandleForReading.close()
        try? output.fileHandleForWriting.close()
        self.process = process

        let deadline = Date().addingTimeInterval(timeout)
        var said = ""
        while !said.contains("ready") {
            var descriptor = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0, process.isRunning || poll(&descriptor, 1, 0) > 0 else { break }
            guard poll(&descriptor, 1, Int32(max(1, remaining * 1000))) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(descriptor.fd, &buffer, buffer.count)
            guard count > 0 else { break }
            said += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        guard said.contains("ready") else {
            let log = (try? String(contentsOfFile: errorOutputPath, encoding: .utf8)) ?? ""
            stop()
            throw RealDriverError.cannotPrepare(reason: "gesture-evdev-fuse did not mount \(mountPoint): \(log)")
        }
    }

    deinit {
        stop()
    }

    /// The server's own error output (lines it could not take, for instance).
    var errorOutput: String {
        (try? String(contentsOfFile: errorOutputPath, encoding: .utf8)) ?? ""
    }

    /// Ends the server (SIGTERM, SIGKILL after 3 s) and unmounts whatever it left. Safe to call twice.
    func stop() {
        guard let process else { return }
        self.process = nil
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(3)
            while process.isRunning, Date() < deadline { usleep(5_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? lifeline.fileHandleForWriting.close()
        try? output.fileHandleForReading.close()
        // A server killed hard leaves a dead mount ("transport endpoint is not connected").
        if Self.isMounted(mountPoint) {
            umount2(mountPoint, Int32(MNT_DETACH))
        }
    }

    static func isMounted(_ path: String) -> Bool {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return false }
        return mounts.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 1 && fields[1] == Substring(path)
        }
    }
}

/// The write side of one emulated device: frames of evdev events go in as "TYPE CODE VALUE"
/// lines, and `waitUntilRead` returns once the driver has read them all.
public final class EvdevNode {
    /// The device node the driver opens.
    public let path: String
    public let description: EvdevDeviceDescription
    private var descriptor: Int32

    init(path: String, description: EvdevDeviceDescription) throws {
        self.path = path
        self.description = description
        descriptor = open(path + ".events", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RealDriverError.cannotPrepare(reason: "cannot open \(path).events: \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close()
    }

    func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Sends one frame (`events` then SYN_REPORT) and waits until the driver has read it.
    public func send(_ events: [(type: UInt16, code: UInt16, value: Int32)], timeout: Double = 3) throws {
        var text = ""
        for event in events { text += "\(event.type) \(event.code) \(event.value)\n" }
        text += "0 0 0\n"
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw RealDriverError.injectionFailed(device: description.name, reason: String(cString: strerror(errno)))
        }
        try waitUntilRead(timeout: timeout)
    }

    /// Returns once every reader of the node (the driver) has read every event sent to it.
    public func waitUntilRead(timeout: Double = 3) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else {
                throw RealDriverError.injectionFailed(device: description.name, reason: "its events file cannot be read")
            }
            let pending = Int(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
            if pending == 0 { return }
            guard Date() < deadline else {
                throw RealDriverError.injectionFailed(
                    device: description.name, reason: "the driver has not read \(pending ?? -1) events after \(timeout) s")
            }
            usleep(500)
        }
    }
}

/// Why a real-driver server could not start or be driven; the message says what to do.
public enum RealDriverError: Error, CustomStringConvertible, Sendable {
    case missing(reason: String)
    case cannotPrepare(reason: String)
    case deviceMissing(display: String, device: String, present: [String], logTail: String)
    case injectionFailed(device: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let reason):
            "the real-driver tests cannot run: \(reason)"
        case .cannotPrepare(let reason):
            "cannot prepare the real-driver Xorg: \(reason)"
        case .deviceMissing(let display, let device, let present, let logTail):
            "Xorg \(display) has no input device \"\(device)\" (it has \(present)); end of its log:\n\(logTail)"
        case .injectionFailed(let device, let reason):
            "cannot drive \(device): \(reason)"
        }
    }
}
