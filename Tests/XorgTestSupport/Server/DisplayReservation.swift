import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A display number no other server uses, held until released.
///
/// An X server claims `:n` through /tmp/.X<n>-lock only once it runs, so two test servers
/// starting at the same moment (in parallel tests, or in two test processes) could pick the
/// same number. An exclusive `flock` on a reservation file of our own closes that window; the
/// kernel drops it if the process dies.
final class DisplayReservation {
    static let searchRange = 20...199

    let number: Int
    private var lockDescriptor: Int32

    var displayName: String { ":\(number)" }
    var serverLockPath: String { Self.serverLockPath(number) }
    var serverSocketPath: String { Self.serverSocketPath(number) }

    private init(number: Int, lockDescriptor: Int32) {
        self.number = number
        self.lockDescriptor = lockDescriptor
    }

    deinit {
        release()
    }

    /// The first number at or after `start` that no server uses and nobody has reserved.
    static func reserve(startingAt start: Int = searchRange.lowerBound) throws -> DisplayReservation {
        for number in max(start, searchRange.lowerBound)...searchRange.upperBound {
            guard !isInUse(number) else { continue }
            let path = "/tmp/.gesturebridge-display-\(number).lock"
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else { continue }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                // Checked again: a server may have appeared while the lock was being taken.
                if !isInUse(number) {
                    return DisplayReservation(number: number, lockDescriptor: descriptor)
                }
                flock(descriptor, LOCK_UN)
            }
            close(descriptor)
        }
        throw HeadlessXorgError.noFreeDisplay(searched: searchRange)
    }

    func release() {
        if lockDescriptor >= 0 {
            flock(lockDescriptor, LOCK_UN)
            close(lockDescriptor)
            lockDescriptor = -1
        }
    }

    /// A server that was killed cannot remove its own lock and socket; they would make the
    /// number look taken forever.
    func removeServerLeftovers() {
        unlink(serverLockPath)
        unlink(serverSocketPath)
    }

    private static func isInUse(_ number: Int) -> Bool {
        FileManager.default.fileExists(atPath: serverLockPath(number))
            || FileManager.default.fileExists(atPath: serverSocketPath(number))
    }

    private static func serverLockPath(_ number: Int) -> String { "/tmp/.X\(number)-lock" }
    private static func serverSocketPath(_ number: Int) -> String { "/tmp/.X11-unix/X\(number)" }
}
