import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif


/// Finds what the real-driver servers need beyond a headless Xorg.
enum RealDriverToolchain {
    static let fuseServerName = "gesture-evdev-fuse"

    /// The package's root, from this file's place in it.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// What is missing to run `driver`'s server here, in words a person can act on; nil when
    /// nothing is. A missing driver is never a reason to skip: the caller fails with it.
    static func missing(for driver: RealDriver) -> String? {
        var missing: [String] = []
        if !XorgModules.exists(driver.moduleFile) {
            missing.append("no \(driver) X input driver (\(driver.moduleFile)): install the Debian package \(driver.debianPackage) (scripts/install-deps --tests)")
        }
        if access("/dev/fuse", R_OK | W_OK) != 0 {
            missing.append("no usable /dev/fuse: the emulated evdev nodes are a FUSE file system (install fuse3; in a container, pass /dev/fuse)")
        }
        if fuseServer() == nil {
            missing.append("\(fuseServerName) is not built beside the tests: run `swift build --build-tests` (it needs libfuse3-dev)")
        }
        if driver == .libinput, XorgInstallation.findExecutable(named: "unshare") == nil {
            missing.append("no unshare (util-linux): the libinput server runs in a private mount namespace")
        }
        return missing.isEmpty ? nil : missing.joined(separator: "; ")
    }

    /// The FUSE server, built by the package beside the test bundle (or the running executable).
    static func fuseServer() -> String? {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var candidates = [beside.appendingPathComponent(fuseServerName).path]
        // The test bundle can sit one level down (…/debug/Name.xctest/…).
        candidates.append(beside.deletingLastPathComponent().appendingPathComponent(fuseServerName).path)
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The stat shim (`PreloadShim`).
    static func statShim() throws -> String {
        try PreloadShim.stat.library()
    }
}

/// The X server's module directories.
enum XorgModules {
    static let directories = [
        "/usr/lib/xorg/modules",
        "/usr/lib64/xorg/modules",
        "/usr/local/lib/xorg/modules",
        "/usr/lib/x86_64-linux-gnu/xorg/modules",
        "/usr/lib/aarch64-linux-gnu/xorg/modules",
    ]

    static func exists(_ relativePath: String) -> Bool {
        directories.contains { FileManager.default.fileExists(atPath: $0 + "/" + relativePath) }
    }
}
