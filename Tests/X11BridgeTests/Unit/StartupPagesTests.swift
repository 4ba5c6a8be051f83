import Glibc
import Testing
@testable import X11Bridge

/// Handing start-up's pages back: which mappings are chosen, and that the pages of a mapped
/// file stop being resident and come back as they are read. (The bridge's own executable is
/// not paged out here: every other test in this process would read its code back from disk.)
@Suite("Start-up pages")
struct StartupPagesTests {
    @Test("the executable's code and its first read-only segment are chosen; relocated, writable and other files' mappings are not")
    func chosenMappings() {
        let maps = """
            55e89145e000-55e8916e4000 r--p 00000000 fe:00 5326058                    /usr/bin/gesture-bridge
            55e8916e4000-55e8920ff000 r-xp 00285000 fe:00 5326058                    /usr/bin/gesture-bridge
            55e8920ff000-55e89215a000 r--p 00c9f000 fe:00 5326058                    /usr/bin/gesture-bridge
            55e89215a000-55e89236c000 rw-p 00cf9000 fe:00 5326058                    /usr/bin/gesture-bridge
            55e89236c000-55e89238d000 rw-p 00000000 00:00 0                          [heap]
            7f1a2b400000-7f1a2b428000 r--p 00000000 fe:00 1835066                    /usr/lib/x86_64-linux-gnu/libc.so.6
            7f1a2b428000-7f1a2b5bd000 r-xp 00028000 fe:00 1835066                    /usr/lib/x86_64-linux-gnu/libc.so.6
            7f1a2b600000-7f1a2b601000 r-xp 00000000 fe:00 777                        /usr/bin/gesture-bridge (deleted)
            """
        #expect(StartupPages.regions(in: maps, of: "/usr/bin/gesture-bridge") == [
            0x55e8_9145_e000..<0x55e8_916e_4000, 0x55e8_916e_4000..<0x55e8_920f_f000,
        ])
        #expect(StartupPages.regions(in: "not a maps line\n\n", of: "/usr/bin/gesture-bridge").isEmpty)
    }

    @Test("a mapped file's pages stop being resident, and are read back as they are used")
    func pagesHandedBack() throws {
        let path = "/tmp/startup-pages-\(getpid())"
        let size = 4 << 20
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor); unlink(path) }
        let page = [UInt8](repeating: 7, count: 4096)
        for _ in 0..<(size / 4096) { _ = page.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } }
        // Written back, the pages are clean copies of the file, as an executable's are.
        try #require(fsync(descriptor) == 0)
        let mapping = try #require(mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0).flatMap { $0 == MAP_FAILED ? nil : $0 })
        defer { munmap(mapping, size) }
        let bytes = mapping.assumingMemoryBound(to: UInt8.self)
        func readAll() -> Int { stride(from: 0, to: size, by: 4096).reduce(0) { $0 + Int(bytes[$1]) } }
        func residentPages() -> Int {
            var vector = [UInt8](repeating: 0, count: size / 4096)
            guard mincore(mapping, size, &vector) == 0 else { return -1 }
            return vector.filter { $0 & 1 != 0 }.count
        }
        #expect(readAll() == 7 * size / 4096)
        #expect(residentPages() == size / 4096)

        #expect(StartupPages.release(mappingsOf: path) == size)
        #expect(residentPages() < size / 4096 / 4, "pages still resident: \(residentPages()) of \(size / 4096)")
        #expect(readAll() == 7 * size / 4096)
    }
}
