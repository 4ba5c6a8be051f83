import GestureKit
import Glibc

/// The `gesture-bridge run` processes of this user on this machine, found in `/proc`: what a
/// command that changes the learned state asks where the store's lock cannot be (a network
/// home folder without a lock manager), and what `doctor` asks of a running bridge's program.
/// A bridge on another machine sharing the home is not seen.
enum BridgeProcesses {
    /// Those whose environment puts their learned state in `directory` (`LearnedStateStore.user`).
    static func keepingLearning(in directory: String) -> [Int32] {
        runningAsThisUser().filter { process in
            guard let environment = environment(of: process) else { return false }
            let theirs = LearnedStateStore.user(environment: environment)?.directory
            return theirs.map { SymbolicLinks.sameFile($0, directory) || $0 == directory } ?? false
        }
    }

    /// Each, with the display its environment names and the X authority file it reaches it by
    /// (nil when it names none, or cannot be read).
    static func displays() -> [(process: Int32, display: String?, authority: String?)] {
        runningAsThisUser().map { process in
            let environment = environment(of: process)
            return (process, environment?["DISPLAY"], environment?["XAUTHORITY"])
        }
    }

    /// A process's environment as it started.
    private static func environment(of process: Int32) -> [String: String]? {
        guard let entries = arguments(of: "/proc/\(process)/environ") else { return nil }
        let pairs = entries.compactMap { entry -> (String, String)? in
            guard let equals = entry.firstIndex(of: "=") else { return nil }
            return (String(entry[..<equals]), String(entry[entry.index(after: equals)...]))
        }
        return Dictionary(pairs) { first, _ in first }
    }

    static func runningAsThisUser() -> [Int32] {
        guard let folder = opendir("/proc") else { return [] }
        defer { closedir(folder) }
        let me = getpid(), user = getuid()
        var found: [Int32] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let process = Int32(name), process != me else { continue }
            var status = stat()
            guard stat("/proc/\(name)", &status) == 0, status.st_uid == user,
                  let arguments = arguments(of: "/proc/\(name)/cmdline"), arguments.count >= 2,
                  arguments[0].split(separator: "/").last == "gesture-bridge", arguments[1] == "run" else { continue }
            found.append(process)
        }
        return found.sorted()
    }

    /// Whether the program process `process` runs was replaced or removed since it started: the
    /// kernel names its file `(deleted)` then. False when it cannot be told (another machine's
    /// display, another user's process).
    static func programReplaced(process: Int) -> Bool {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/\(process)/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return false }
        let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return target.hasSuffix(" (deleted)")
    }

    /// A process's arguments or environment, as `/proc/PID/cmdline` and `environ` hold them
    /// (each ended by a NUL).
    private static func arguments(of path: String) -> [Substring]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer.prefix(count)
        }
        guard !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false)
            .dropLast().map { $0 }
    }
}
