import Foundation
import Glibc
import Testing
@testable import GestureKit

/// Config files and learned state are read whole: every byte, whatever the size the file
/// reports, and the system's own words when it cannot be read.
@Suite("A small file read whole")
struct FileContentsTests {
    @Test("every byte comes back, at sizes around the page the reader grows by", arguments: [0, 1, 4095, 4096, 4097, 70_000])
    func exactBytes(size: Int) throws {
        let path = NSTemporaryDirectory() + "file-contents-\(getpid())-\(size)"
        defer { unlink(path) }
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        #expect(try FileContents.read(path) == bytes)
    }

    @Test("a file that reports no size is read to its end")
    func sizeUnknown() throws {
        var status = stat()
        #expect(stat("/proc/self/smaps", &status) == 0 && status.st_size == 0, "the stimulus: a file whose size reads 0")
        let text = String(decoding: try FileContents.read("/proc/self/smaps"), as: UTF8.self)
        // Far over one page, and whole: its last mapping's last line is complete.
        #expect(text.utf8.count > 16 * 1024)
        #expect(text.hasSuffix("\n"))
        #expect(text.split(separator: "\n").last?.hasPrefix("VmFlags:") == true)
    }

    /// Found in review of the bridge's security: another user's named pipe, held open by a
    /// writer that wrote nothing, kept the bridge reading it for good, deaf to SIGTERM.
    @Test("a named pipe whose writer writes nothing: given up after the wait, with words that say so; one whose writer writes and goes: read whole")
    func silentPipe() throws {
        let path = NSTemporaryDirectory() + "file-contents-fifo-\(getpid())"
        defer { unlink(path) }
        #expect(mkfifo(path, 0o600) == 0)
        let writer = open(path, O_RDWR | O_CLOEXEC)
        #expect(writer >= 0)
        let started = Date()
        do {
            _ = try FileContents.read(path, pipeWait: 0.2)
            Issue.record("read a pipe nobody wrote to")
        } catch {
            #expect(error.code == ETIMEDOUT && error.reason.contains("writes nothing"), "\(error.reason)")
        }
        #expect(Date().timeIntervalSince(started) < 3, "given up after the wait")
        // A writer that writes, and goes a moment later: all it wrote, then the end.
        let text = Array("bindings: []\n".utf8)
        #expect(text.withUnsafeBytes { Glibc.write(writer, $0.baseAddress, $0.count) } == text.count)
        Thread {
            usleep(100_000)
            close(writer)
        }.start()
        #expect(try FileContents.read(path, pipeWait: 2) == text)
    }

    @Test("a missing file and a folder: the system's words")
    func unreadable() {
        #expect(throws: FileReadError.self) { try FileContents.read("/nonexistent-\(getpid())/config.yaml") }
        do {
            _ = try FileContents.read("/nonexistent-\(getpid())/config.yaml")
        } catch {
            #expect(error.code == ENOENT)
            #expect(error.reason == "no such file")
        }
        do {
            _ = try FileContents.read(NSTemporaryDirectory())
            Issue.record("a folder was read as a file")
        } catch {
            #expect(error.code == EISDIR)
        }
    }

    /// Found in review of the day's diff: a file of gigabytes named by mistake was read whole
    /// before it was said too large, or ran the process out of memory.
    @Test("a file over the limit is refused by its size before it is read; one at the limit's side is read")
    func tooLarge() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString).yaml").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(truncate(path, 1 << 40) == 0)  // a terabyte, sparse
        #expect { try FileContents.read(path) } throws: { ($0 as? FileReadError)?.code == EFBIG }
        #expect(truncate(path, 4096) == 0)
        #expect(try FileContents.read(path).count == 4096)
    }
}
