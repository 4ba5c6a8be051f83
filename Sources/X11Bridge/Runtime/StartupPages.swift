import GestureKit
import Glibc

/// The pages of the bridge's own code and read-only data that start-up read and the event
/// loop never touches again (argument parsing, the YAML reader, the device catalog's set-up),
/// handed back to the kernel once the bridge is listening. They are clean copies of the
/// executable file, so nothing is lost: a page the loop does need is read back on its first
/// use. Without this they stay resident for the life of the bridge, most of its memory
/// (BENCHMARKS.md, "Where the memory goes").
public enum StartupPages {
    /// Advises MADV_PAGEOUT (Linux 5.4 and later; older kernels refuse it, and nothing
    /// changes), then MADV_RANDOM, over the executable's code and its first read-only
    /// segment, never over the relocated or writable ones. Returns the bytes paged out.
    @discardableResult
    public static func release() -> Int {
        guard let executable = executablePath() else { return 0 }
        return release(mappingsOf: executable)
    }

    /// The same over the mappings of any file: its code, and read-only data from its start.
    package static func release(mappingsOf file: String) -> Int {
        guard let maps = try? FileContents.read("/proc/self/maps") else { return 0 }
        var advised = 0
        for addresses in regions(in: String(decoding: maps, as: UTF8.self), of: file) {
            guard let start = UnsafeMutableRawPointer(bitPattern: addresses.lowerBound),
                  madvise(start, addresses.count, MADV_PAGEOUT) == 0 else { continue }
            // From now on a fault reads the page it needs, not its neighbours too: what
            // stays resident is what the loop runs.
            _ = madvise(start, addresses.count, MADV_RANDOM)
            advised += addresses.count
        }
        return advised
    }

    /// The address ranges of `file`'s clean mappings in a /proc/PID/maps text: code (`r-xp`)
    /// and read-only data from the file's start (`r--p` at offset 0). Read-only data further in
    /// has been written by relocation and is the process's own; writable data always is.
    package static func regions(in maps: String, of file: String) -> [Range<Int>] {
        maps.split(separator: "\n").compactMap { line in
            guard let region = Region(line), region.path == file,
                  region.permissions == "r-xp" || (region.permissions == "r--p" && region.offset == 0) else { return nil }
            return region.addresses
        }
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// One line of /proc/self/maps: `start-end perms offset dev inode path`.
    private struct Region {
        var addresses: Range<Int>
        var permissions: Substring
        var offset: Int
        var path: Substring

        init?(_ line: Substring) {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6 else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = Int(bounds[0], radix: 16), let end = Int(bounds[1], radix: 16), end > start,
                  let offset = Int(fields[2], radix: 16) else { return nil }
            addresses = start..<end
            self.permissions = fields[1]
            self.offset = offset
            self.path = fields[5].drop { $0 == " " }
        }
    }
}
