import Glibc

/// Waits for any of a few descriptors to become readable, or for a deadline.
enum Poller {
    /// The readable descriptors; empty when the timeout passed. `timeout` nil waits forever.
    /// An array: there are a handful, and a set would hash on every wakeup.
    static func wait(for descriptors: [Int32], timeout: Double?) -> [Int32] {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let milliseconds: Int32
        if let timeout {
            // Rounded up: waking a fraction of a millisecond early would find nothing due and
            // poll again with a zero timeout, over and over.
            milliseconds = timeout <= 0 ? 0 : Int32(min((timeout * 1000).rounded(.up), Double(Int32.max)))
        } else {
            milliseconds = -1
        }
        while true {
            let result = poll(&fds, nfds_t(fds.count), milliseconds)
            if result < 0 && errno == EINTR { continue }
            break
        }
        var ready: [Int32] = []
        for entry in fds where entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            ready.append(entry.fd)
        }
        return ready
    }
}
