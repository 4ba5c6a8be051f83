import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An `LD_PRELOAD` library of Tests/PreloadShims, compiled once per test process with the
/// system C compiler (see Package.swift for why it is no SwiftPM product) into
/// `.build/real-drivers`, beside the package's builds.
public enum PreloadShim: String, Sendable, CaseIterable {
    /// Makes chosen files look like character devices, for the libinput server (`stat_shim.c`).
    case stat = "stat_shim"
    /// Holds `fsync` until the test says go (`fsync_gate.c`): a disk that does not answer.
    case fsyncGate = "fsync_gate"
    /// Fails every `flock` with ENOLCK (`flock_fails.c`): a network home without a lock manager.
    case flockFails = "flock_fails"
    /// Fails the listing of one folder with EIO (`opendir_fails.c`): a home on a server that
    /// does not answer.
    case opendirFails = "opendir_fails"

    private static let built = Mutex<[PreloadShim: Result<String, RealDriverError>]>([:])

    /// The library's path, built on first use.
    public func library() throws -> String {
        try Self.built.withLock { built in
            if let result = built[self] { return try result.get() }
            let result = Result { try compile() }.mapError { error in
                error as? RealDriverError ?? .cannotPrepare(reason: "\(error)")
            }
            built[self] = result
            return try result.get()
        }
    }

    private func compile() throws -> String {
        let source = RealDriverToolchain.packageRoot.appendingPathComponent("Tests/PreloadShims/\(rawValue).c").path
        guard FileManager.default.fileExists(atPath: source) else {
            throw RealDriverError.missing(reason: "the shim's source is not at \(source)")
        }
        let directory = RealDriverToolchain.packageRoot.appendingPathComponent(".build/real-drivers").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let name = "libgesture-\(rawValue.replacingOccurrences(of: "_", with: "-"))"
        let library = directory + "/\(name)-\(getpid()).so"
        let finished = directory + "/\(name).so"
        guard let compiler = ["cc", "gcc", "clang"].lazy.compactMap(XorgInstallation.findExecutable(named:)).first else {
            throw RealDriverError.missing(reason: "no C compiler (cc) to build \(source): install gcc")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = ["-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", "-o", library, source, "-ldl"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = errors
        try ChildProcessLauncher.run(process)
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw RealDriverError.cannotPrepare(reason: "\(compiler) could not build \(source): \(String(decoding: output, as: UTF8.self))")
        }
        // Several test processes may build it at once: each renames a whole file into place.
        guard rename(library, finished) == 0 else {
            throw RealDriverError.cannotPrepare(reason: "cannot move \(library) to \(finished)")
        }
        return finished
    }
}
