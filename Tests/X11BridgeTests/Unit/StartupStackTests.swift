import Foundation
import Glibc
import Testing
@testable import X11Bridge

/// Start-up's deep stack, given back before the event loop first waits: the pages below the
/// caller's frame leave the thread's private dirty memory, and the thread goes on using its stack.
@Suite("The stack start-up used, given back")
struct StartupStackTests {
    @Test("pages dirtied far below the caller are no longer the thread's; the stack still works")
    func deepPagesGiveBack() throws {
        let depth = 256 * 1024
        let before = try #require(StackMapping.privateDirtyKiB())
        // The stimulus: this thread's stack dirtied `depth` bytes down, as start-up's reflection does.
        #expect(dirtyStack(bytes: depth) == depth)
        let dirtied = try #require(StackMapping.privateDirtyKiB())
        #expect(dirtied >= before + 200, "the stimulus did not dirty the stack: \(before) KiB, then \(dirtied) KiB")

        let released = try #require(StartupStack.release())
        let after = try #require(StackMapping.privateDirtyKiB())
        #expect(after <= dirtied - 200, "\(dirtied) KiB dirty before the release, \(after) KiB after")
        // Nothing the caller's frame holds was dropped.
        var here: UInt8 = 0
        let frame = withUnsafeMutablePointer(to: &here) { UInt(bitPattern: $0) }
        #expect(released.upperBound < frame)

        // Touched again, the pages come back zeroed and usable.
        #expect(dirtyStack(bytes: depth) == depth)
    }
}

/// Writes a byte on every page of `bytes` of stack below the caller, one frame per kilobyte;
/// returns how many bytes it wrote down to.
@inline(never)
private func dirtyStack(bytes: Int) -> Int {
    guard bytes > 0 else { return 0 }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer in
        for index in stride(from: 0, to: buffer.count, by: 512) { buffer[index] = UInt8(truncatingIfNeeded: bytes) }
        return 1024 + dirtyStack(bytes: bytes - 1024) + Int(buffer[0] &- buffer[0])
    }
}

/// The smaps entry of the mapping the calling thread's stack is in.
private enum StackMapping {
    static func privateDirtyKiB() -> Int? {
        var here: UInt8 = 0
        let address = withUnsafeMutablePointer(to: &here) { UInt(bitPattern: $0) }
        // Read to the end: a /proc file reports a size of 0, and a read by size stops early.
        guard let file = FileHandle(forReadingAtPath: "/proc/self/smaps") else { return nil }
        let text = String(decoding: file.readDataToEndOfFile(), as: UTF8.self)
        var inside = false
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let range = fields.first, range.contains("-"), !range.hasSuffix(":") {
                let bounds = range.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, fields.first == "Private_Dirty:", fields.count >= 2 {
                return Int(fields[1])
            }
        }
        return nil
    }
}
