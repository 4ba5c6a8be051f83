import Foundation
import GestureKit
import XorgTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `gesture-bridge run --json --config FILE` on a chaos server, its standard output and log
/// going to files that the player reads as they grow.
final class ChaosBridge {
    let process: Process
    let outputURL: URL
    let logURL: URL

    /// Starts the bridge and waits until it says it listens.
    init(executable: String, config: URL, displayName: String, directory: URL) throws {
        outputURL = directory.appendingPathComponent("bridge.jsonl")
        logURL = directory.appendingPathComponent("bridge.log")
        for url in [outputURL, logURL] where !FileManager.default.createFile(atPath: url.path, contents: nil) {
            throw ChaosError.toolFailed("cannot create \(url.path)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["run", "--json", "--verbose", "--no-watch", "--config", config.path]
        process.environment = ChaosBridge.environment(displayName: displayName, home: directory)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: logURL)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        guard waitForLines(timeout: 10, until: { !$0.events(.listening).isEmpty }) else {
            stop()
            throw ChaosError.bridgeDidNotStart(log: log)
        }
    }

    /// A clean environment: the chaos display, no user config.
    static func environment(displayName: String, home: URL) -> [String: String] {
        ["DISPLAY": displayName, "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home.path,
         "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
         "XDG_STATE_HOME": home.appendingPathComponent("state").path]
    }

    var isAlive: Bool { process.isRunning }

    var lines: [String] {
        ((try? String(contentsOf: outputURL, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// The whole `--json` lines written so far, each decoded into the type that printed it, and
    /// those no output type reads (a renamed key, a broken line: a finding).
    var decodedLines: (lines: [OutputLine], unread: [String]) {
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        // A line still being written is no line yet.
        let whole = text.utf8.lastIndex(of: UInt8(ascii: "\n")).map { text[..<$0] } ?? ""
        var decoded: [OutputLine] = []
        var unread: [String] = []
        for line in whole.split(separator: "\n") {
            if let output = try? JSONDecoder().decode(OutputLine.self, from: Data(line.utf8)) {
                decoded.append(output)
            } else {
                unread.append(String(line))
            }
        }
        return (decoded, unread)
    }

    var outputLines: [OutputLine] { decodedLines.lines }

    /// Waits until `condition` holds for the lines so far; false after `timeout` seconds.
    func waitForLines(timeout: Double, until condition: ([OutputLine]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if condition(outputLines) { return true }
            if Date() >= deadline || !process.isRunning { return condition(outputLines) }
            usleep(5_000)
        }
    }

    /// How many of the bridge's own events are of `kind`.
    func count(_ kind: RunEventLine.Event) -> Int {
        outputLines.events(kind).count
    }

    /// Waits until the bridge has not woken for `quiet` seconds (it has read everything it was
    /// sent; it wakes for nothing else than input, timers and signals); false when it still
    /// wakes after `timeout`, or has ended.
    @discardableResult
    func waitUntilAsleep(quiet: Double, timeout: Double) -> Bool {
        // /proc unreadable: the bridge is gone.
        (try? ProcessWakeups(pid: process.processIdentifier)
            .waitUntilAsleep(quiet: quiet, timeout: timeout, interval: 5_000, while: { process.isRunning })) ?? false
    }

    func signal(_ number: Int32) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, number)
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning, Date() < deadline { usleep(5_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// Why an episode could not be played at all (as opposed to a failure it found).
public enum ChaosError: Error, CustomStringConvertible {
    case bridgeDidNotStart(log: String)
    case bridgeNotFound(String)
    case toolFailed(String)
    case noMouse

    public var description: String {
        switch self {
        case .bridgeDidNotStart(let log): "the bridge did not start: \(log)"
        case .bridgeNotFound(let path): "no gesture-bridge executable at \(path); build it first (swift build)"
        case .toolFailed(let what): what
        case .noMouse: "a mouse step on a server started without a mouse"
        }
    }
}
