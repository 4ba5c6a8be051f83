import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Starts a child process with no signals blocked.
///
/// A child inherits the signal mask of the thread that spawns it, and the threads the test
/// runner uses block SIGTERM and SIGINT: an Xorg (or a bridge) started from a test would then
/// ignore SIGTERM and could only be killed. Foundation's `Process` does not reset the mask, so
/// the spawning thread clears it for the moment of the spawn.
public enum ChildProcessLauncher {
    public static func run(_ process: Process) throws {
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &unblocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }
}
