import Foundation
import XorgTestSupport

/// What a process's memory costs the machine, from `/proc/PID/smaps_rollup`: its private dirty
/// pages (written by it alone: heap, stacks, relocated data; the kernel can only swap them) and
/// its proportional set size (each resident page divided by the processes that map it). The
/// resident set size counts clean pages of files too, which stay in the page cache whatever the
/// process does and which the kernel drops by itself under pressure: it is printed for reference.
struct MemoryFigures {
    var privateDirtyKiB = 0
    var pssKiB = 0
    var residentKiB = 0

    init(pid: Int32) {
        for line in readProcFile("/proc/\(pid)/smaps_rollup").split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kib = Int(fields[1]) else { continue }
            switch fields[0] {
            case "Private_Dirty:": privateDirtyKiB = kib
            case "Pss:": pssKiB = kib
            case "Rss:": residentKiB = kib
            default: break
            }
        }
    }

    var description: String {
        "private dirty \(privateDirtyKiB) KiB, Pss \(pssKiB) KiB (resident \(residentKiB) KiB)"
    }
}

/// Reads a /proc file to its end: it reports a size of 0, and a read by size stops early.
func readProcFile(_ path: String) -> String {
    FileHandle(forReadingAtPath: path).map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
}

/// Where a process's private dirty pages are, by mapping, largest first: a file's mappings by
/// name and permissions (the executable's relocated read-only data apart from its writable
/// data), `[heap]`, `[stack]`, and `[anonymous]` (malloc's large blocks and other arenas, the
/// Swift runtime's metadata allocations, thread stacks), from `/proc/PID/smaps`.
func privateDirtyByMapping(pid: Int32, top: Int = 10) -> String {
    var dirty: [String: Int] = [:]
    var name = ""
    for line in readProcFile("/proc/\(pid)/smaps").split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        if let first = fields.first, first.contains("-"), first.allSatisfy({ $0.isHexDigit || $0 == "-" }), fields.count > 1 {
            if fields.count > 5 {
                let path = String(fields[5])
                let base = path.split(separator: "/").last.map(String.init) ?? path
                name = path.hasPrefix("/") ? "\(base) \(fields[1].prefix(3))" : base
            } else {
                name = "[anonymous]"
            }
        } else if fields.first == "Private_Dirty:", fields.count > 1, let kib = Int(fields[1]), kib > 0 {
            dirty[name, default: 0] += kib
        }
    }
    return dirty.sorted { $0.value > $1.value }.prefix(top).map { "\($0.key) \($0.value)" }.joined(separator: ", ") + " (KiB)"
}

/// `xev`, the X.Org event viewer: the smallest ordinary Xlib client at hand (a window, an event
/// loop, libX11 and libxcb), measured beside the bridge in the same run as the baseline any X
/// client pays. Its window sits in the bottom-right corner, away from the presses, the drawing
/// and the knob.
final class XevRun {
    let process = Process()

    init(server: HeadlessXorg) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xev")
        process.arguments = ["-geometry", "100x100+1160+680", "-name", "gesture-measure-xev"]
        process.environment = server.clientEnvironment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try ChildProcessLauncher.run(process)
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
    }
}
