import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A busy loop on every core, as a compile or a browser makes one, for as long as it lives.
final class ChaosBusyLoad {
    private var spinners: [Process] = []

    init() throws {
        for _ in 0..<max(1, ProcessInfo.processInfo.activeProcessorCount) {
            let spinner = Process()
            spinner.executableURL = URL(fileURLWithPath: "/bin/sh")
            spinner.arguments = ["-c", "while :; do :; done"]
            try spinner.run()
            spinners.append(spinner)
        }
    }

    func stop() {
        for spinner in spinners where spinner.isRunning {
            kill(spinner.processIdentifier, SIGKILL)
            spinner.waitUntilExit()
        }
        spinners.removeAll()
    }

    deinit { stop() }
}
