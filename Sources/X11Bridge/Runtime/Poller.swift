import CLinux
import Glibc

/// Waits for any of a few descriptors to become readable, or for a deadline.
///
/// The descriptors that stay for the whole run (the X connection, the signal descriptor, the
/// config file watch) sit in an epoll set, so a wakeup costs the kernel nothing for the ones
/// that are quiet; poll(2) would look at each of them on every wakeup, a measurable share of
/// a 1000 Hz stream (BENCHMARKS.md). Descriptors that come and go (a running command's pipe)
/// are polled beside the epoll descriptor instead: a closed descriptor leaves an epoll set by
/// itself, and its number can come back as a new pipe the set would never hear of.
///
/// One instance serves an event loop from wakeup to wakeup; its lists keep their storage, so a
/// wakeup allocates nothing.
final class Poller {
    /// Descriptors open for as long as the loop runs, or closed for good; set before each wait.
    var lasting: [Int32] = []
    /// Descriptors that may close and reopen under the same number; set before each wait.
    var passing: [Int32] = []
    private let epoll: Int32
    private var registered: [Int32] = []
    private var events = [epoll_event](repeating: epoll_event(), count: 8)
    private var entries: [pollfd] = []
    private var ready: [Int32] = []

    init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    }

    deinit {
        if epoll >= 0 { close(epoll) }
    }

    /// Waits until a descriptor is readable (or hung up, or failed) or `timeout` seconds
    /// passed; nil waits forever.
    func wait(timeout: Double?) {
        let milliseconds: Int32
        if let timeout {
            // Rounded up: waking a fraction of a millisecond early would find nothing due and
            // wait again with a zero timeout, over and over.
            milliseconds = timeout <= 0 ? 0 : Int32(min((timeout * 1000).rounded(.up), Double(Int32.max)))
        } else {
            milliseconds = -1
        }
        ready.removeAll(keepingCapacity: true)
        guard epoll >= 0 else {
            // No epoll (it cannot fail for lack of memory at this size, but if it did): poll all.
            pollAll(lasting + passing, milliseconds: milliseconds)
            return
        }
        register()
        if passing.isEmpty {
            collectEpoll(milliseconds: milliseconds)
            return
        }
        pollAll([epoll] + passing, milliseconds: milliseconds)
        if let index = ready.firstIndex(of: epoll) {
            ready.remove(at: index)
            collectEpoll(milliseconds: 0)
        }
    }

    /// Whether the last `wait` found `descriptor` readable (or hung up, or failed).
    func isReady(_ descriptor: Int32) -> Bool {
        ready.contains(descriptor)
    }

    /// Brings the epoll set in line with `lasting`: nothing to do on a wakeup where it did not change.
    private func register() {
        guard lasting != registered else { return }
        for descriptor in registered where !lasting.contains(descriptor) {
            // Already gone if it was closed; that is fine.
            _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, nil)
        }
        for descriptor in lasting where !registered.contains(descriptor) {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.fd = descriptor
            if epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event) != 0 && errno == EEXIST {
                _ = epoll_ctl(epoll, EPOLL_CTL_MOD, descriptor, &event)
            }
        }
        registered = lasting
    }

    private func collectEpoll(milliseconds: Int32) {
        // Interrupted (a signal, or the process stopped and continued: a busy or suspended
        // machine), it returns with nothing ready, and the loop works out the timeout again: the
        // same wait again would meet a deadline that passed meanwhile a whole timeout late.
        let count = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), milliseconds) }
        for index in 0..<Int(max(0, count)) {
            ready.append(events[index].data.fd)
        }
    }

    private func pollAll(_ descriptors: [Int32], milliseconds: Int32) {
        entries.removeAll(keepingCapacity: true)
        for descriptor in descriptors {
            entries.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0))
        }
        // Interrupted, as above: back to the loop.
        let result = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        guard result > 0 else { return }
        for entry in entries where entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            ready.append(entry.fd)
        }
    }
}
