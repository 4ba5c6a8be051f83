import Dispatch
import Foundation
import Glibc
import Testing
@testable import X11Bridge

/// `run`'s output and log lines never wait for their reader (`DetachedWriter`).
@Suite("Writing lines nobody reads")
struct DetachedWriterTests {
    /// A pipe, both ends; the caller closes them.
    static func pipeEnds() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    /// Everything readable on `descriptor` now.
    static func drain(_ descriptor: Int32) -> String {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Found in review of the day: a terminal whose program stopped reading (not by Ctrl-S) left
    /// the caller waiting in a write `poll` had allowed, as much room as there was being less
    /// than the line.
    @Test("a terminal nobody reads: a thousand lines handed over without waiting")
    func terminalUnread() {
        // A terminal's two ends, as posix_openpt, unlockpt (TIOCSPTLCK) and ptsname (TIOCGPTN) make them.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        let terminal = master >= 0 && ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0
            ? open("/dev/pts/\(number)", O_WRONLY | O_NOCTTY | O_CLOEXEC) : -1
        defer {
            close(master)
            close(terminal)
        }
        guard terminal >= 0 else {
            Issue.record("no terminal to write to")
            return
        }
        let writer = DetachedWriter(descriptor: terminal)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            for _ in 0..<1000 { writer.write(String(repeating: "x", count: 99)) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 2) == .success, "the caller waited for the terminal")
        // What waits is read, so the writer's thread writes nothing once the descriptors close:
        // read until it is all written, however slowly a loaded machine lets the writer's
        // thread go (a full run once took over 500 rounds of 10 ms).
        // (Asked again with no time to wait, the writer's thread may not have run yet: the
        // loop's own answer is the one; a run under heavy disk load once read that as not done.)
        let deadline = DispatchTime.now() + 60
        var finished = false
        while !finished, DispatchTime.now() < deadline {
            finished = writer.finish(timeout: 0.01)
            if !finished { _ = Self.drain(master) }
        }
        #expect(finished, "all written once read")
    }

    @Test("a pipe that fills: lines beyond the limit dropped, told once the rest is read, with their number; then lines go on")
    func droppedToldOnce() throws {
        let ends = try Self.pipeEnds()
        defer { close(ends.read) }
        _ = fcntl(ends.write, 1031, 4096)  // F_SETPIPE_SZ: one page
        let writer = DetachedWriter(descriptor: ends.write, limit: 1024)
        defer { close(ends.write) }
        let line = String(repeating: "y", count: 99)
        // Told only once what waited is written: into the pipe's page as it filled (on a loaded
        // machine), then once it is read.
        var tellings: [Int] = []
        for _ in 0..<200 {
            #expect(writer.write(line))
            tellings.append(writer.takeDropped())
        }
        var read = ""
        for _ in 0..<100 where !writer.finish(timeout: 0.01) { read += Self.drain(ends.read) }
        read += Self.drain(ends.read)
        let written = read.split(separator: "\n").count
        tellings.append(writer.takeDropped())
        tellings.removeAll { $0 == 0 }
        let told = tellings.reduce(0, +)
        #expect(written + told == 200 && told > 100, "\(written) written, \(told) told dropped")
        #expect(tellings.count <= 3, "not a telling a line: \(tellings)")
        #expect(writer.takeDropped() == 0, "told once")
        #expect(writer.write("after"))
        #expect(writer.finish(timeout: 1))
        #expect(Self.drain(ends.read) == "after\n")
    }

    /// Found in review of a `--json` reader: a reader that paused lost a press's `ended` and
    /// action lines with nothing in the stream to say so.
    @Test("lines dropped while nothing read them are marked where they are missing, before the next line, with their number")
    func droppedMarkedInStream() throws {
        let ends = try Self.pipeEnds()
        defer {
            close(ends.read)
            close(ends.write)
        }
        _ = fcntl(ends.write, 1031, 4096)  // F_SETPIPE_SZ: one page
        let writer = DetachedWriter(descriptor: ends.write, limit: 8192)
        for index in 0..<400 { writer.write(String(repeating: "x", count: 60) + " \(index)") }
        var read = ""
        for _ in 0..<500 where !writer.finish(timeout: 0.01) { read += Self.drain(ends.read) }
        read += Self.drain(ends.read)
        let kept = read.split(separator: "\n").count
        let (goesOn, dropped) = writer.write("after", markingDropped: { "dropped \($0)" })
        #expect(goesOn && dropped > 0 && kept + dropped == 400, "\(kept) written, \(dropped) dropped")
        #expect(writer.finish(timeout: 1))
        #expect(Self.drain(ends.read) == "dropped \(dropped)\nafter\n")
        #expect(writer.write("later", markingDropped: { "dropped \($0)" }) == (true, 0), "told once")
    }

    /// (A reader gone: `UnreadOutputTests.outputReaderGone`, in a process that blocks SIGPIPE
    /// as `run` does.)
    @Test("while the pipe has room a line is written before write returns")
    func atOnce() throws {
        let ends = try Self.pipeEnds()
        defer {
            close(ends.write)
            close(ends.read)
        }
        let writer = DetachedWriter(descriptor: ends.write)
        #expect(writer.write("now"))
        #expect(Self.drain(ends.read) == "now\n", "out before write returned")
    }
}
