import Glibc

/// Linux system calls that Swift's Glibc module does not import (their headers are not part
/// of it), looked up in the C library at run time. Each is nil where the C library lacks it.
enum LinuxCalls {
    typealias SignalFD = @convention(c) (Int32, UnsafePointer<sigset_t>?, Int32) -> Int32
    typealias PidFDOpen = @convention(c) (pid_t, UInt32) -> Int32
    typealias SpawnCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

    /// signalfd(2), glibc 2.8 and later.
    static let signalfd: SignalFD? = symbol("signalfd", as: SignalFD.self)

    /// pidfd_open(2), glibc 2.36 and later; Linux 5.3 and later.
    static let pidfdOpen: PidFDOpen? = symbol("pidfd_open", as: PidFDOpen.self)

    /// posix_spawn_file_actions_addclosefrom_np, glibc 2.34 and later: a spawned child
    /// inherits none of the descriptors above the given one.
    static let spawnCloseFrom: SpawnCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np", as: SpawnCloseFrom.self)

    // From <sys/signalfd.h>: they equal O_NONBLOCK and O_CLOEXEC.
    static let signalfdNonBlocking = O_NONBLOCK
    static let signalfdCloseOnExec = Int32(O_CLOEXEC)
    /// sizeof(struct signalfd_siginfo); ssi_signo is its first field (uint32).
    static let signalfdInfoSize = 128

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        // RTLD_DEFAULT is a null handle in glibc: search the libraries already loaded.
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(address, to: type)
    }
}
