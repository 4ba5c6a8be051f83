import Glibc
import Testing
@testable import X11Bridge

/// Start-up's deep stack, given back before the event loop first waits: the pages below the
/// caller's frame leave memory, and the thread goes on using its stack.
@Suite("The stack start-up used, given back")
struct StartupStackTests {
    @Test("pages dirtied far below the caller are no longer resident; the stack still works")
    func deepPagesGiveBack() throws {
        // Whatever earlier tests on this thread left below is dropped first, so the stimulus
        // below is what makes the span resident.
        StartupStack.release()
        var here: UInt8 = 0
        let frame = withUnsafeMutablePointer(to: &here) { UInt(bitPattern: $0) }
        let room = try #require(StartupStack.lowestStackAddress()).distance(to: frame)
        try #require(room > 512 * 1024, "this thread's stack has \(room) bytes below the test: too few for the stimulus")
        let span = try #require(StackSpan(from: 32 * 1024, to: 256 * 1024))
        #expect(dirtyStack(bytes: 320 * 1024) == 320 * 1024)
        let dirtied = try #require(span.residentPages())
        #expect(dirtied == span.pages, "the stimulus left \(dirtied) of \(span.pages) pages resident")

        let released = try #require(StartupStack.release())
        let after = try #require(span.residentPages())
        #expect(after == 0, "\(after) of \(span.pages) pages still resident")
        // Nothing the caller's frame holds was dropped.
        #expect(released.upperBound < frame)

        // Touched again, the pages come back zeroed and usable.
        #expect(dirtyStack(bytes: 320 * 1024) == 320 * 1024)
        #expect(span.residentPages() == span.pages)
    }
}

/// Writes a byte on every page of `bytes` of stack below the caller, a frame per kilobyte;
/// returns how many bytes it went down.
@inline(never)
private func dirtyStack(bytes: Int) -> Int {
    guard bytes > 0 else { return 0 }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer in
        for index in stride(from: 0, to: buffer.count, by: 512) { buffer[index] = UInt8(truncatingIfNeeded: bytes) }
        return 1024 + dirtyStack(bytes: bytes - 1024) + Int(buffer[0] &- buffer[0])
    }
}

/// Whole pages of the calling thread's stack between two depths below the caller's frame,
/// and how many of them are resident (`mincore`).
private struct StackSpan {
    let start: UInt
    let pages: Int

    @inline(never)
    init?(from shallow: Int, to deep: Int) {
        let page = UInt(sysconf(Int32(_SC_PAGESIZE)))
        var here: UInt8 = 0
        let frame = withUnsafeMutablePointer(to: &here) { UInt(bitPattern: $0) }
        guard frame > UInt(deep) + page, deep > shallow else { return nil }
        start = (frame - UInt(deep) + page - 1) & ~(page - 1)
        let end = (frame - UInt(shallow)) & ~(page - 1)
        pages = Int((end - start) / page)
    }

    func residentPages() -> Int? {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var flags = [UInt8](repeating: 0, count: pages)
        guard let base = UnsafeMutableRawPointer(bitPattern: start),
              mincore(base, pages * page, &flags) == 0 else { return nil }
        return flags.filter { $0 & 1 != 0 }.count
    }
}
