import Foundation
import Glibc
import X11Bridge

/// A program run by a test, with its output on pipes the test reads as it goes.
///
/// Spawned with posix_spawn and an empty signal mask: Foundation's Process hands children
/// the mask of its own thread, where SIGTERM is blocked, so a server started that way
/// ignores the SIGTERM meant to stop it. Stopping always ends in SIGKILL, so nothing a test
/// starts outlives it.
final class ChildProcess {
    let pid: pid_t
    private var outputReader: OutputPipe
    private var errorReader: OutputPipe
    private(set) var exitStatus: Int32?
    /// The write end of the child's standard input, when the test types into it; -1 otherwise.
    private var inputEnd: Int32 = -1

    /// `typesInput`: the child's standard input is a pipe the test writes with `type(_:)`;
    /// otherwise it reads /dev/null.
    init(executable: String, arguments: [String], environment: [String: String], typesInput: Bool = false) throws {
        let outputPipe = try OutputPipe()
        let errorPipe = try OutputPipe()
        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        var inputEnds: [Int32] = [-1, -1]
        if typesInput {
            guard pipe(&inputEnds) == 0 else { throw ChildProcessError(message: "pipe failed") }
            _ = fcntl(inputEnds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&files, inputEnds[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&files, outputPipe.writeEnd, 1)
        posix_spawn_file_actions_adddup2(&files, errorPipe.writeEnd, 2)
        // The child must hold none of the test process's descriptors: a server guardian waits
        // for its lifeline pipe to close, which a child holding it open would prevent forever.
        if let closeFrom = Self.spawnCloseFrom { _ = closeFrom(&files, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &files, &attributes, &argv, &envp)
        outputPipe.closeWriteEnd()
        errorPipe.closeWriteEnd()
        if typesInput { close(inputEnds[0]) }
        inputEnd = inputEnds[1]
        guard status == 0 else {
            throw ChildProcessError(message: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        self.pid = pid
        self.outputReader = outputPipe
        self.errorReader = errorPipe
    }

    private typealias SpawnCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// posix_spawn_file_actions_addclosefrom_np (glibc 2.34+), which Swift's Glibc does not import.
    private static let spawnCloseFrom: SpawnCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            return nil
        }
        return unsafeBitCast(symbol, to: SpawnCloseFrom.self)
    }()

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

    func kill(signal: Int32) {
        guard exitStatus == nil else { return }
        _ = Glibc.kill(pid, signal)
    }

    /// The exit status, or nil if it is still running after `timeout` seconds.
    func waitForExit(timeout: Double) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                exitStatus = ChildExit(waitStatus: status).shellStatus
                outputReader.readAvailable()
                errorReader.readAvailable()
                return exitStatus
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
    let readEnd: Int32
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
        close(readEnd)
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
