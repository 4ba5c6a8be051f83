import Glibc
import Testing
import X11Bridge

/// Wait statuses decoded once, for the bridge's commands, its volume tools and the tests' children.
@Suite("How a child process ended")
struct ChildExitTests {
    @Test("exit codes and signals, and the status a shell would report", arguments: [
        (Int32(0x0000), ChildExit.exited(code: 0), Int32(0)),
        (Int32(0x0300), ChildExit.exited(code: 3), Int32(3)),
        (Int32(SIGTERM), ChildExit.killed(signal: SIGTERM), Int32(128 + SIGTERM)),
        (Int32(SIGKILL) | 0x80, ChildExit.killed(signal: SIGKILL), Int32(128 + SIGKILL)),   // with a core dump
    ])
    func decode(status: Int32, exit: ChildExit, shell: Int32) {
        #expect(ChildExit(waitStatus: status) == exit)
        #expect(ChildExit(waitStatus: status).shellStatus == shell)
        #expect(ChildExit(waitStatus: status).succeeded == (exit == .exited(code: 0)))
    }

    @Test("a real child: its exit code as waitpid reports it")
    func realChild() throws {
        var pid: pid_t = 0
        let words = ["/bin/sh", "-c", "exit 7"]
        var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/sh", nil, nil, &argv, environ) == 0)
        var status: Int32 = 0
        #expect(waitpid(pid, &status, 0) == pid)
        #expect(ChildExit(waitStatus: status) == .exited(code: 7))
        #expect("\(ChildExit(waitStatus: status))" == "exited with status 7")
    }
}
