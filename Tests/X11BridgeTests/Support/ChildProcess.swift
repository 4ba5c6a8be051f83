import Foundation
import Glibc
import X11Bridge
import XorgTestSupport

/// A program run by a test, with its output on pipes the test reads as it goes.
///
/// Started as the bridge starts its own children (`Subprocess`): no signal blocked, none of the
/// test process's descriptors inherited. Foundation's Process hands children the mask of its
/// own thread, where SIGTERM is blocked, so a server started that way ignores the SIGTERM
/// meant to stop it; and a server guardian waits for its lifeline pipe to close, which a child
/// holding it open would prevent forever. The child stays in the test's process group, so
/// Ctrl-C ends it with the test run. Stopping always ends in SIGKILL, so nothing a test starts
/// outlives it.
final class ChildProcess {
    private let process: Subprocess
    private var outputReader: OutputPipe
    private var errorReader: OutputPipe
    /// The write end of the child's standard input, when the test types into it; -1 otherwise.
    private var inputEnd: Int32 = -1

    /// `typesInput`: the child's standard input is a pipe the test writes with `type(_:)`;
    /// otherwise it reads /dev/null. `ownProcessGroup`: the child leads a process group of its
    /// own, as a shell with job control starts a job, so a stop signal (SIGTSTP) stops it: the
    /// test's own group has no shell to continue it, and the kernel drops such a stop there.
    init(executable: String, arguments: [String], environment: [String: String], typesInput: Bool = false,
         ownProcessGroup: Bool = false) throws {
        let outputPipe = try OutputPipe()
        let errorPipe = try OutputPipe()
        var inputEnds: [Int32] = [-1, -1]
        if typesInput {
            guard pipe(&inputEnds) == 0 else { throw ChildProcessError(message: "pipe failed") }
            _ = fcntl(inputEnds[1], F_SETFD, FD_CLOEXEC)
        }
        defer {
            outputPipe.closeWriteEnd()
            errorPipe.closeWriteEnd()
            if typesInput { close(inputEnds[0]) }
        }
        do {
            process = try Subprocess([executable] + arguments, environment: environment.map { "\($0.key)=\($0.value)" },
                                     input: typesInput ? inputEnds[0] : nil, output: outputPipe.writeEnd,
                                     error: errorPipe.writeEnd, ownProcessGroup: ownProcessGroup)
        } catch {
            if typesInput { close(inputEnds[1]) }
            throw ChildProcessError(message: error.message)
        }
        inputEnd = inputEnds[1]
        self.outputReader = outputPipe
        self.errorReader = errorPipe
    }

    var pid: pid_t { process.pid }

    /// How it ended, as a shell says it; nil until it has been reaped.
    var exitStatus: Int32? {
        if case .ended(let exit) = process.status { return exit.shellStatus }
        return nil
    }

    deinit {
        kill(signal: SIGKILL)
        _ = waitForExit(timeout: 5)
        closeInput()
    }

    /// Writes `text` to the child's standard input, as a person types it.
    func type(_ text: String) {
        guard inputEnd >= 0 else { return }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(inputEnd, $0.baseAddress, $0.count) }
    }

    /// Closes the child's standard input: it reads the end of it.
    func closeInput() {
        guard inputEnd >= 0 else { return }
        close(inputEnd)
        inputEnd = -1
    }

    /// Everything written to standard output so far.
    var output: String {
        outputReader.readAvailable()
        return outputReader.text
    }

    var errorOutput: String {
        errorReader.readAvailable()
        return errorReader.text
    }

    /// Makes the pipe from the child's standard output hold only `bytes` (at least a page):
    /// a child writing more than that while the test does not read waits, as it would with
    /// a reader who stopped reading. False when the kernel refuses (more is waiting in it).
    func limitOutputPipe(to bytes: Int32) -> Bool {
        // F_SETPIPE_SZ, which Glibc's module leaves out (fcntl(2)).
        fcntl(outputReader.readEnd, 1031, bytes) >= 0
    }

    /// As `limitOutputPipe`, for the child's standard error.
    func limitErrorPipe(to bytes: Int32) -> Bool {
        fcntl(errorReader.readEnd, 1031, bytes) >= 0
    }

    /// The bytes waiting unread in the pipes from the child's standard output and error.
    var unreadBytes: (output: Int32, error: Int32) {
        func waiting(_ pipe: OutputPipe) -> Int32 {
            var count: Int32 = 0
            return ioctl(pipe.readEnd, UInt(FIONREAD), &count) == 0 ? count : -1
        }
        return (waiting(outputReader), waiting(errorReader))
    }

    /// Closes the test's end of the pipe from the child's standard output (`OutputPipe.closeReadEnd`).
    func closeOutput() {
        outputReader.closeReadEnd()
    }

    /// Waits until `condition` holds for (stdout, stderr), reading as output arrives.
    @discardableResult
    func waitForOutput(timeout: Double, until condition: (String, String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            outputReader.readAvailable()
            errorReader.readAvailable()
            if condition(outputReader.text, errorReader.text) { return true }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 || (outputReader.isClosed && errorReader.isClosed) { return false }
            var fds = [outputReader, errorReader].filter { !$0.isClosed }
                .map { pollfd(fd: $0.readEnd, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 0.2) * 1000) + 1)
        }
    }

    /// Times the process was switched out, voluntarily or not, since it started (`ProcessWakeups`).
    func contextSwitches() throws -> Int {
        try ProcessWakeups(pid: pid).count()
    }

    /// Waits until the process has not woken for `quiet` seconds: it has read everything it was
    /// sent and sleeps. False when it still wakes after `timeout`.
    func waitUntilAsleep(quiet: Double, timeout: Double = 3) throws -> Bool {
        try ProcessWakeups(pid: pid).waitUntilAsleep(quiet: quiet, timeout: timeout, interval: 10_000)
    }

    func kill(signal: Int32) {
        process.signal(signal)
    }

    /// The exit status, or nil if it is still running after `timeout` seconds.
    func waitForExit(timeout: Double) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if case .ended(let exit) = process.reap() {
                outputReader.readAvailable()
                errorReader.readAvailable()
                return exit.shellStatus
            }
            usleep(5_000)
        } while Date() < deadline
        return nil
    }

    /// SIGTERM, then SIGKILL when it does not go within `grace` seconds.
    func stop(grace: Double = 3) {
        kill(signal: SIGTERM)
        if waitForExit(timeout: grace) == nil {
            kill(signal: SIGKILL)
            _ = waitForExit(timeout: 5)
        }
    }
}

/// A pipe from a child's output; the test reads it without blocking.
final class OutputPipe {
    private(set) var readEnd: Int32
    private(set) var writeEnd: Int32
    private var bytes: [UInt8] = []
    private(set) var isClosed = false

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ChildProcessError(message: "pipe failed") }
        readEnd = ends[0]
        writeEnd = ends[1]
        _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
    }

    deinit {
        closeWriteEnd()
        closeReadEnd()
    }

    /// The test stops reading for good, as a pipe's reader that exits: the child's next write
    /// there fails (EPIPE).
    func closeReadEnd() {
        guard readEnd >= 0 else { return }
        close(readEnd)
        readEnd = -1
        isClosed = true
    }

    func closeWriteEnd() {
        guard writeEnd >= 0 else { return }
        close(writeEnd)
        writeEnd = -1
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    func readAvailable() {
        guard !isClosed else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += buffer[0..<count]
            } else {
                if count == 0 { isClosed = true }
                return
            }
        }
    }
}

struct ChildProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
