import CLinux
import Glibc

/// The stack start-up used below the event loop, handed back to the kernel before the loop
/// first waits.
///
/// Start-up goes far deeper than the bridge ever goes again: ArgumentParser reflects each
/// command (`Mirror`), and the Swift runtime instantiates the metadata of a mirror's children
/// five classes deep under it, about 40 KiB of stack. Those pages would stay private dirty for
/// the bridge's whole life, since the kernel takes an anonymous page back only by writing it to
/// swap. `MADV_DONTNEED` drops them; a page touched again comes back zero-filled, as a stack
/// page touched for the first time does (glibc does the same with a finished thread's stack it
/// keeps for the next thread).
enum StartupStack {
    /// Drops the calling thread's stack pages more than `margin` bytes below the caller's frame.
    /// Returns the span released (nil when the stack's bounds could not be read).
    @inline(never)
    @discardableResult
    static func release(keeping margin: Int = 8 * 1024) -> ClosedRange<UInt>? {
        guard let lowest = lowestStackAddress() else { return nil }
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        var marker: UInt8 = 0
        let frame = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        guard frame > UInt(margin) + page else { return nil }
        let end = (frame - UInt(margin)) & ~(page - 1)
        let start = (lowest + page - 1) & ~(page - 1)
        guard start < end, let base = UnsafeMutableRawPointer(bitPattern: start) else { return nil }
        // The span reaches below what is mapped of a main thread's stack (its bound is the
        // size limit): the kernel drops what is mapped and reports the rest, which is expected.
        _ = madvise(base, Int(end - start), MADV_DONTNEED)
        return start...(end - 1)
    }

    /// The lowest address of the calling thread's stack (for the main thread, as far as its size
    /// limit lets it grow).
    static func lowestStackAddress() -> UInt? {
        var attributes = pthread_attr_t()
        guard pthread_getattr_np(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
        return UInt(bitPattern: address)
    }
}
