import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A tiny shell process that ends the server if this test process dies without stopping it.
///
/// Its standard input is a pipe whose writing end only this process holds: when the process
/// exits for any reason (a crash included) the read returns, and the server, which would
/// otherwise spin at full CPU on its dead device sockets, is terminated and its run directory
/// removed. A normal `stop()` dismisses the guardian once the server is gone, never before:
/// the test process may still die while the server is shutting down.
final class ServerGuardian {
    private let process = Process()
    private let lifeline = Pipe()

    init(serverProcessID: Int32, runDirectory: String) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The process id is acted on only while its command line still names the run
        // directory: after the server is gone, the number may belong to another process.
        let script = """
            read -r _
            is_server() { grep -qaF -- "$2" "/proc/$1/cmdline" 2>/dev/null; }
            if is_server "$1" "$2"; then
                kill -TERM "$1"
                i=0
                while [ $i -lt 30 ] && is_server "$1" "$2"; do sleep 0.1; i=$((i + 1)); done
                if is_server "$1" "$2"; then kill -KILL "$1"; fi
            fi
            rm -rf -- "$2"
            """
        process.arguments = ["-c", script, "gesturebridge-xorg-guardian", String(serverProcessID), runDirectory]
        process.standardInput = lifeline
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ChildProcessLauncher.run(process)
        try? lifeline.fileHandleForReading.close()
    }

    deinit {
        dismiss()
    }

    var processID: Int32 { process.processIdentifier }

    func dismiss() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
