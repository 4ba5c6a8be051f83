import GestureKit
import Glibc

/// The pages of code and read-only data that start-up read and the event loop never touches
/// again (argument parsing, the YAML reader, the device catalog's set-up, the dynamic loader's
/// work in every library), handed back once the bridge is listening. They are clean copies of
/// files, so nothing is lost: a page the loop does need is mapped again on its first use.
/// Without this they stay in the bridge's resident memory for its life, most of it
/// (BENCHMARKS.md, "Where the memory goes").
public enum StartupPages {
    /// Drops this process's mappings of the pages in every clean mapping of a file (MADV_DONTNEED):
    /// private, not writable, and without a page of its own (none written by relocation or
    /// copied on write, none swapped; `/proc/self/pagemap` tells). For such a mapping that drops
    /// references and nothing else: the pages stay in the page cache, shared with every other
    /// program that maps the same files, and one the loop needs is mapped again by a minor
    /// fault (the kernel maps its cached neighbours with it, so code the loop runs is best kept
    /// together: the release link orders it, see the Makefile). Returns the bytes advised.
    @discardableResult
    public static func release() -> Int {
        release { _ in true }
    }

    /// The same over the clean mappings of one file only (a test maps a file of its own).
    package static func release(mappingsOf file: String) -> Int {
        release { $0 == file }
    }

    private static func release(where chosen: (String) -> Bool) -> Int {
        guard let maps = try? FileContents.read("/proc/self/maps") else { return 0 }
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
        guard pagemap >= 0 else { return 0 }
        defer { close(pagemap) }
        // Every mapping is judged before any is dropped: code that runs between two drops is
        // mapped back at once.
        let clean = candidates(inMaps: String(decoding: maps, as: UTF8.self)).filter {
            chosen($0.path) && isCopyOfFile(pageFlags(of: $0.addresses, in: pagemap))
        }
        return clean.reduce(0) { advised, mapping in
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.addresses.lowerBound),
                  madvise(start, mapping.addresses.count, MADV_DONTNEED) == 0 else { return advised }
            return advised + mapping.addresses.count
        }
    }

    /// One mapping of a file, as /proc/PID/maps describes it.
    package struct Mapping: Equatable {
        package var addresses: Range<Int>
        package var path: String
    }

    /// The mappings in a /proc/PID/maps text that may be clean copies of a file: a file's (the
    /// path is absolute and the file still there), private, readable and not writable.
    /// Whether relocation wrote to one (RELRO) the pages tell, `isCopyOfFile`.
    package static func candidates(inMaps maps: String) -> [Mapping] {
        maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6 else { return nil }
            let bounds = fields[0].split(separator: "-")
            let flags = Array(fields[1])
            let path = String(fields[5].drop { $0 == " " })
            guard bounds.count == 2, let start = Int(bounds[0], radix: 16), let end = Int(bounds[1], radix: 16), end > start,
                  flags.count == 4, flags[0] == "r", flags[1] == "-", flags[3] == "p",
                  path.hasPrefix("/"), !path.hasSuffix(" (deleted)") else { return nil }
            return Mapping(addresses: start..<end, path: path)
        }
    }

    /// Whether a mapping whose pages have these /proc/PID/pagemap entries is a clean copy of its
    /// file: no page of its own in memory (present, bit 63, and not the file's, bit 61 clear)
    /// and none swapped out (bit 62). Nil (the entries could not be read) is no.
    package static func isCopyOfFile(_ entries: [UInt64]?) -> Bool {
        guard let entries else { return false }
        return !entries.contains { entry in
            let present = entry & (1 << 63) != 0, swapped = entry & (1 << 62) != 0, filePage = entry & (1 << 61) != 0
            return swapped || (present && !filePage)
        }
    }

    /// The pagemap entries of the pages in `addresses`, one 64-bit word each.
    private static func pageFlags(of addresses: Range<Int>, in pagemap: Int32) -> [UInt64]? {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard pageSize > 0 else { return nil }
        var entries = [UInt64](repeating: 0, count: addresses.count / pageSize)
        let offset = off_t(addresses.lowerBound / pageSize * 8)
        let read = entries.withUnsafeMutableBytes { pread(pagemap, $0.baseAddress, $0.count, offset) }
        return read == entries.count * 8 ? entries : nil
    }
}
