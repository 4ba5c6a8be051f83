import Foundation
import Glibc
import Testing
@testable import X11Bridge

@Suite("Children are started, reaped and their ends decoded in one place")
struct SubprocessTests {
    @Test("a child holds no descriptor of its parent above standard error, has no signal blocked or ignored and leads its own process group")
    func cleanStart() throws {
        // Left without close-on-exec on purpose.
        let leaked = open("/dev/null", O_RDONLY)
        defer { close(leaked) }
        // Blocked in this thread and ignored, as the bridge and a shell's background jobs have them.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGUSR2)
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &mask)
        let disposition = signal(SIGUSR2, SIG_IGN)
        let started = Result { try Subprocess(["sleep", "10"]) }
        signal(SIGUSR2, disposition)
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        let child = try started.get()
        defer {
            child.signal(SIGKILL)
            child.wait()
        }
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd").sorted()
        #expect(descriptors == ["0", "1", "2"])
        let stat = try String(contentsOfFile: "/proc/\(child.pid)/stat", encoding: .utf8)
        // After "pid (comm)": state, parent, process group.
        let fields = stat.split(separator: ")").last.map { $0.split(separator: " ") } ?? []
        #expect(fields.count > 2 && fields[2] == "\(child.pid)")
        let status = try String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8)
        #expect(Self.signals("SigBlk", in: status) == 0)
        // The standard signals; glibc keeps a few real-time ones (32, 33) for itself.
        #expect(Self.signals("SigIgn", in: status).map { $0 & 0x7fff_ffff } == 0)
    }

    /// Found in review: a script whose `#!` interpreter is missing was said to be "not found in
    /// PATH" (a path is never looked up there), and one without a `#!` line gave "Exec format
    /// error" and no hint.
    @Test("a program that cannot start is said why: not in PATH, its #! interpreter missing, no #! line, no such file")
    func whyItCannotStart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("subprocess-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func script(_ name: String, _ text: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
            return path
        }
        func failure(_ argv: [String]) -> String? {
            do {
                let child = try Subprocess(argv)
                child.wait()
                return nil
            } catch {
                return error.message
            }
        }
        let python = try script("py.sh", "#!/nonexistent/python -u\nprint(1)\n")
        let bare = try script("bare.sh", "echo hi\n")
        #expect(failure(["gesture-bridge-no-such-program"]) == "cannot run gesture-bridge-no-such-program: No such file or directory (not found in PATH)")
        #expect(failure([python]) == "cannot run \(python): the interpreter /nonexistent/python its #! line names is not there")
        #expect(failure([bare])?.hasPrefix("cannot run \(bare): Exec format error: not a program the system can start") == true, "\(failure([bare]) ?? "")")
        #expect(failure([folder.path + "/none"]) == "cannot run \(folder.path)/none: No such file or directory")
        // Written as for a shell: it says there is none.
        for program in ["~/bin/gesture-bridge-no-such", "$TERMINAL"] {
            #expect(failure([program])?.contains("the command runs without a shell") == true, "\(failure([program]) ?? "")")
        }
        // Found in review of a machine short of resources: out of processes or descriptors,
        // the bare error named nothing to act on.
        #expect(Subprocess.why("sleep", cannot: EAGAIN).contains("ulimit -u"))
        #expect(Subprocess.why("sleep", cannot: EMFILE).contains("ulimit -n"))
    }

    /// A signal set from /proc/<pid>/status, one bit per signal from bit 0 for signal 1.
    static func signals(_ field: String, in status: String) -> UInt64? {
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return line.flatMap { UInt64($0.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16) }
    }

    @Test("a child can stay in its parent's group and read input and environment it is given")
    func givenInput() throws {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        #expect(pipe(&input) == 0 && pipe(&output) == 0)
        defer { close(output[0]) }
        let child = try Subprocess(["sh", "-c", "read -r line; echo \"$GREETING $line $(cut -d')' -f2 /proc/$$/stat)\""],
                                   environment: ["GREETING=hello", "PATH=/usr/bin:/bin"], input: input[0],
                                   output: output[1], ownProcessGroup: false)
        close(input[0])
        close(output[1])
        _ = "world\n".withCString { write(input[1], $0, 6) }
        close(input[1])
        #expect(child.wait() == .ended(.exited(code: 0)))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(output[0], $0.baseAddress, $0.count) }
        let words = String(decoding: buffer[0..<max(0, count)], as: UTF8.self).split(separator: " ")
        #expect(words.prefix(2) == ["hello", "world"])
        // The state, parent and process group of the shell.
        #expect(words.count > 4 && words[4] == "\(getpgrp())")
    }

    @Test("a child is reaped once; its end stays known and it is signalled no more")
    func reapedOnce() throws {
        let child = try Subprocess(["sh", "-c", "kill -TERM $$"])
        #expect(child.wait() == .ended(.killed(signal: SIGTERM)))
        #expect(child.reap() == .ended(.killed(signal: SIGTERM)))
        child.signal(SIGKILL)
        #expect(child.status == .ended(.killed(signal: SIGTERM)))
        #expect(throws: ActionFailure.self) { try Subprocess([]) }
    }
}
