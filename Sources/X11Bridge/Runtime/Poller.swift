import Glibc

/// Waits for any of a few descriptors to become readable, or for a deadline. One instance
/// serves an event loop from wakeup to wakeup: its lists keep their storage, so a wakeup
/// allocates nothing. There are a handful of descriptors, so lists, not sets.
final class Poller {
    /// The descriptors the next `wait` watches; set before each wait.
    var descriptors: [Int32] = []
    private var entries: [pollfd] = []

    /// Waits until a descriptor is readable (or hung up, or failed) or `timeout` seconds
    /// passed; nil waits forever.
    func wait(timeout: Double?) {
        entries.removeAll(keepingCapacity: true)
        for descriptor in descriptors {
            entries.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0))
        }
        let milliseconds: Int32
        if let timeout {
            // Rounded up: waking a fraction of a millisecond early would find nothing due and
            // poll again with a zero timeout, over and over.
            milliseconds = timeout <= 0 ? 0 : Int32(min((timeout * 1000).rounded(.up), Double(Int32.max)))
        } else {
            milliseconds = -1
        }
        while true {
            let result = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
            if result < 0 && errno == EINTR { continue }
            if result < 0 {
                // Nothing can be said about any descriptor: report none ready.
                for index in entries.indices { entries[index].revents = 0 }
            }
            break
        }
    }

    /// Whether the last `wait` found `descriptor` readable (or hung up, or failed).
    func isReady(_ descriptor: Int32) -> Bool {
        for entry in entries where entry.fd == descriptor {
            return entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
        }
        return false
    }
}
