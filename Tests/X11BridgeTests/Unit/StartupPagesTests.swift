import Glibc
import Testing
@testable import GestureKit
@testable import X11Bridge

/// Handing start-up's pages back: which mappings are chosen, that the pages of a mapped file
/// leave the process's resident memory and come back as they are read, that a written mapping
/// is left alone, and that a process that hands back all of its clean pages runs on.
@Suite("Start-up pages")
struct StartupPagesTests {
    @Test("the candidates are a file's private read-only mappings; writable, shared, anonymous and deleted ones are not")
    func candidateMappings() {
        let maps = """
            55e89145e000-55e8916e4000 r--p 00000000 fe:00 5326058                    /usr/bin/gesture-bridge
            55e8916e4000-55e8920ff000 r-xp 00285000 fe:00 5326058                    /usr/bin/gesture-bridge
            55e89215a000-55e89236c000 rw-p 00cf9000 fe:00 5326058                    /usr/bin/gesture-bridge
            55e89236c000-55e89238d000 rw-p 00000000 00:00 0                          [heap]
            7f1a2b428000-7f1a2b5bd000 r-xp 00028000 fe:00 1835066                    /usr/lib/x86_64-linux-gnu/libc.so.6
            7f1a2b5bd000-7f1a2b5be000 ---p 00195000 fe:00 1835066                    /usr/lib/x86_64-linux-gnu/libc.so.6
            7f1a2b5be000-7f1a2b5bf000 r-xs 00000000 00:01 44                         /memfd:shared (deleted)
            7f1a2b600000-7f1a2b601000 r-xp 00000000 fe:00 777                        /usr/bin/gesture-bridge (deleted)
            7ffd3b5e0000-7ffd3b5e2000 r-xp 00000000 00:00 0                          [vdso]
            7f1a2b700000-7f1a2b701000 r--p 00000000 00:00 0
            """
        #expect(StartupPages.candidates(inMaps: maps) == [
            .init(addresses: 0x55e8_9145_e000..<0x55e8_916e_4000, path: "/usr/bin/gesture-bridge"),
            .init(addresses: 0x55e8_916e_4000..<0x55e8_920f_f000, path: "/usr/bin/gesture-bridge"),
            .init(addresses: 0x7f1a_2b42_8000..<0x7f1a_2b5b_d000, path: "/usr/lib/x86_64-linux-gnu/libc.so.6"),
        ])
        #expect(StartupPages.candidates(inMaps: "not a maps line\n\n").isEmpty)
    }

    @Test("a mapping is a copy of its file while every page in memory is the file's and none is swapped out")
    func copyOfFile() {
        let present: UInt64 = 1 << 63, swapped: UInt64 = 1 << 62, filePage: UInt64 = 1 << 61
        #expect(StartupPages.isCopyOfFile([present | filePage, 0, present | filePage]))
        #expect(StartupPages.isCopyOfFile([]))
        #expect(!StartupPages.isCopyOfFile([present | filePage, present]), "a page written by relocation")
        #expect(!StartupPages.isCopyOfFile([0, swapped]), "a page of its own, swapped out")
        #expect(!StartupPages.isCopyOfFile(nil), "unread")
    }

    @Test("this whole process hands back its clean pages, the executable's and every library's, and runs on")
    func wholeProcess() throws {
        let maps = try FileContents.read("/proc/self/maps")
        let paths = Set(StartupPages.candidates(inMaps: String(decoding: maps, as: UTF8.self)).map(\.path))
        #expect(paths.contains { $0.contains("libc.so") })
        #expect(paths.count >= 3, "clean mappings of \(paths.sorted())")
        #expect(StartupPages.release() > 0)
        // Code and read-only data, this test's and the C library's, are mapped back as they run.
        #expect(String(cString: strerror(ENOENT)) == "No such file or directory")
        #expect([3, 1, 2].sorted() == [1, 2, 3])
        #expect(try FileContents.read("/proc/self/maps").isEmpty == false)
    }

    @Test("a mapped file's pages leave this process's resident memory, stay cached, and are read back as they are used")
    func pagesHandedBack() throws {
        let path = "/tmp/startup-pages-\(getpid())"
        let size = 4 << 20
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor); unlink(path) }
        let page = [UInt8](repeating: 7, count: 4096)
        for _ in 0..<(size / 4096) { _ = page.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } }
        let mapping = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0).flatMap { $0 == MAP_FAILED ? nil : $0 })
        defer { munmap(mapping, size) }
        let bytes = mapping.assumingMemoryBound(to: UInt8.self)
        func readAll() -> Int { stride(from: 0, to: size, by: 4096).reduce(0) { $0 + Int(bytes[$1]) } }
        /// Pages of the mapping in this process's page tables: what its resident memory counts.
        func mappedPages() throws -> Int {
            let pagemap = open("/proc/self/pagemap", O_RDONLY)
            try #require(pagemap >= 0)
            defer { close(pagemap) }
            var entries = [UInt64](repeating: 0, count: size / 4096)
            let offset = off_t(Int(bitPattern: mapping) / 4096 * 8)
            let read = entries.withUnsafeMutableBytes { pread(pagemap, $0.baseAddress, $0.count, offset) }
            try #require(read == size / 4096 * 8)
            return entries.filter { $0 >> 63 == 1 }.count
        }
        /// Pages of the file in the page cache.
        func cachedPages() -> Int {
            var vector = [UInt8](repeating: 0, count: size / 4096)
            guard mincore(mapping, size, &vector) == 0 else { return -1 }
            return vector.filter { $0 & 1 != 0 }.count
        }
        #expect(readAll() == 7 * size / 4096)
        #expect(try mappedPages() == size / 4096)

        #expect(StartupPages.release(mappingsOf: path) == size)
        #expect(try mappedPages() == 0)
        #expect(cachedPages() == size / 4096)
        #expect(readAll() == 7 * size / 4096)
        #expect(try mappedPages() == size / 4096)
    }

    @Test("a private mapping with a page of its own is left alone: dropping it would lose the write")
    func writtenMappingKept() throws {
        let size = 64 << 10
        let path = "/tmp/startup-pages-written-\(getpid())"
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor); unlink(path) }
        try #require(ftruncate(descriptor, off_t(size)) == 0)
        // The file's mapping, written once (relocation does this to read-only data), then made read-only.
        let file = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, descriptor, 0).flatMap { $0 == MAP_FAILED ? nil : $0 })
        defer { munmap(file, size) }
        file.storeBytes(of: 42, as: UInt8.self)
        try #require(mprotect(file, size, PROT_READ) == 0)

        #expect(StartupPages.release(mappingsOf: path) == 0)
        #expect(file.load(as: UInt8.self) == 42)
    }
}
