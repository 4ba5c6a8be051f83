import Glibc

/// C library calls that are newer than some C libraries the bridge runs on (glibc 2.34:
/// Ubuntu 22.04 has 2.35), looked up in the C library at run time rather than declared by a
/// header, so one binary runs on both. Each is nil where the C library lacks it. Calls every
/// supported C library has come from the CLinux module (pidfd_open there is the kernel's call
/// itself, which glibc wraps only from 2.36).
enum LinuxCalls {
    typealias SpawnCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// posix_spawn_file_actions_addclosefrom_np, glibc 2.34 and later: a spawned child
    /// inherits none of the descriptors above the given one.
    static let spawnCloseFrom: SpawnCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np", as: SpawnCloseFrom.self)

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        // RTLD_DEFAULT is a null handle in glibc: search the libraries already loaded.
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(address, to: type)
    }
}
