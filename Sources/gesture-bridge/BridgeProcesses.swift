import Glibc

/// The `gesture-bridge run` processes of this user on this machine, found in `/proc`: what a
/// command that changes the learned state asks where the store's lock cannot be (a network
/// home folder without a lock manager). A bridge on another machine sharing the home is not
/// seen.
enum BridgeProcesses {
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

    /// A process's arguments, as `/proc/PID/cmdline` holds them (each ended by a NUL).
    private static func arguments(of path: String) -> [Substring]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count), as: UTF8.self).split(separator: "\0", omittingEmptySubsequences: false)
            .dropLast().map { $0 }
    }
}
