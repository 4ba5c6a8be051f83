import Glibc
import Testing
import X11Bridge

/// Handing start-up's pages back: the process's own code stops being resident, and the code
/// it runs afterwards is read back as it is used.
@Suite("Start-up pages")
struct StartupPagesTests {
    /// KiB of this process's executable code resident now, from /proc/self/smaps.
    static func residentCode() -> Int {
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &path, path.count - 1)
        guard count > 0, let smaps = fopen("/proc/self/smaps", "r") else { return -1 }
        defer { fclose(smaps) }
        let executable = String(decoding: path[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var line = [CChar](repeating: 0, count: 4096)
        var inCode = false
        var total = 0
        while fgets(&line, Int32(line.count), smaps) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 2 {
                inCode = fields[1] == "r-xp" && text.hasSuffix(executable + "\n")
            } else if inCode, fields.first == "Rss:", fields.count > 1, let kib = Int(fields[1]) {
                total += kib
            }
        }
        return total
    }

    @Test("after start-up the executable's code is handed back; code run later comes back as it is used")
    func codeHandedBack() {
        let before = Self.residentCode()
        let advised = StartupPages.release()
        let after = Self.residentCode()
        #expect(advised > 0)
        #expect(before > 0 && after < before / 2, "resident code \(before) KiB before, \(after) KiB after")
        // Code the process runs after the release still runs: it is read back on first use.
        #expect(StartupPages.release() > 0)
    }
}
