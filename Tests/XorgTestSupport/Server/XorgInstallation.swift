import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where the pieces a headless Xorg needs live on this machine, or what is missing.
struct XorgInstallation: Sendable {
    let serverExecutable: String

    private static let moduleDirectories = [
        "/usr/lib/xorg/modules",
        "/usr/lib64/xorg/modules",
        "/usr/local/lib/xorg/modules",
        "/usr/lib/x86_64-linux-gnu/xorg/modules",
        "/usr/lib/aarch64-linux-gnu/xorg/modules",
    ]

    /// Finds everything or says, in words a person can act on, what is missing.
    static func locate() -> Result<XorgInstallation, HeadlessXorgError> {
        var missing: [String] = []
        if geteuid() != 0 {
            missing.append("not running as root: Xorg with the dummy video driver opens the console, run the tests as root")
        }
        let executable = findExecutable(named: "Xorg")
        if executable == nil {
            missing.append("no Xorg executable in PATH: install the Debian package xserver-xorg-core")
        }
        if findModule("input/inputtest_drv.so") == nil {
            missing.append("no inputtest input driver (input/inputtest_drv.so): install xserver-xorg-core 21.1 or newer")
        }
        if findModule("drivers/dummy_drv.so") == nil {
            missing.append("no dummy video driver (drivers/dummy_drv.so): install the Debian package xserver-xorg-video-dummy")
        }
        if let executable, missing.isEmpty {
            return .success(XorgInstallation(serverExecutable: executable))
        }
        return .failure(.unavailable(reason: missing.joined(separator: "; ")))
    }

    static func findExecutable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
        for directory in directories {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    private static func findModule(_ relativePath: String) -> String? {
        moduleDirectories
            .map { $0 + "/" + relativePath }
            .first { FileManager.default.fileExists(atPath: $0) }
    }
}
