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
    /// private, not writable, and without a page of its own (no page written by relocation or
    /// copied on write: `Anonymous: 0 kB` in `/proc/self/smaps`). For such a mapping that drops
    /// references and nothing else: the pages stay in the page cache, shared with every other
    /// program that maps the same files, and one the loop needs is mapped again by a minor
    /// fault (the kernel maps its cached neighbours with it, so code the loop runs is best kept
    /// together: the release link orders it, see the Makefile). Returns the bytes advised.
    @discardableResult
    public static func release() -> Int {
        guard let smaps = try? FileContents.read("/proc/self/smaps") else { return 0 }
        return release(regions(inSmaps: String(decoding: smaps, as: UTF8.self)))
    }

    /// The same over the clean mappings of one file only (a test maps a file of its own).
    package static func release(mappingsOf file: String) -> Int {
        guard let smaps = try? FileContents.read("/proc/self/smaps") else { return 0 }
        return release(regions(inSmaps: String(decoding: smaps, as: UTF8.self)).filter { $0.path == file })
    }

    private static func release(_ mappings: [Mapping]) -> Int {
        mappings.reduce(0) { advised, mapping in
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.addresses.lowerBound),
                  madvise(start, mapping.addresses.count, MADV_DONTNEED) == 0 else { return advised }
            return advised + mapping.addresses.count
        }
    }

    /// One mapping of a file, as /proc/PID/smaps describes it.
    package struct Mapping: Equatable {
        package var addresses: Range<Int>
        package var path: String
    }

    /// The clean mappings in a /proc/PID/smaps text: a file's (the path is absolute), private,
    /// readable and not writable, with no anonymous page. Read-only data that relocation wrote
    /// (RELRO) has anonymous pages and is left alone, as is anything writable.
    package static func regions(inSmaps smaps: String) -> [Mapping] {
        var found: [Mapping] = []
        var candidate: Mapping?
        for line in smaps.split(separator: "\n") {
            if let header = Header(line) {
                candidate = header.isCleanCandidate ? Mapping(addresses: header.addresses, path: header.path) : nil
            } else if line.hasPrefix("Anonymous:"), let mapping = candidate {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if fields.count >= 2, fields[1] == "0" { found.append(mapping) }
                candidate = nil
            }
        }
        return found
    }

    /// The first line of a mapping in smaps (as in maps): `start-end perms offset dev inode path`.
    private struct Header {
        var addresses: Range<Int>
        var permissions: Substring
        var path: String

        init?(_ line: Substring) {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, fields[1].count == 4 else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = Int(bounds[0], radix: 16), let end = Int(bounds[1], radix: 16),
                  end > start, Int(fields[2], radix: 16) != nil else { return nil }
            addresses = start..<end
            permissions = fields[1]
            path = fields.count == 6 ? String(fields[5].drop { $0 == " " }) : ""
        }

        /// Readable, not writable, private, and backed by a file that is still there.
        var isCleanCandidate: Bool {
            let flags = Array(permissions)
            return flags[0] == "r" && flags[1] == "-" && flags[3] == "p"
                && path.hasPrefix("/") && !path.hasSuffix(" (deleted)")
        }
    }
}
