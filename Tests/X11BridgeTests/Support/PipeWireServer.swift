import Foundation
import Glibc
import Testing
import XorgTestSupport

/// A private PipeWire for a test: its own D-Bus session bus, pipewire, and wireplumber (the
/// session manager that picks the default output, which wpctl's `@DEFAULT_AUDIO_SINK@`
/// names), with one null sink, in a temporary runtime and home directory.
///
/// As root this works as it is: PipeWire and wireplumber run for whoever starts them. What
/// they need besides is a session bus (wireplumber will not start without one), so the test
/// runs its own dbus-daemon on a socket in the temporary directory; dbus-daemon's complaint
/// that it may not raise its file limit is harmless. Clients reach this PipeWire through
/// `XDG_RUNTIME_DIR` (its socket is `pipewire-0` there) and nothing else.
final class PipeWireServer {
    let directory: URL
    let runtimeDirectory: URL
    private var processes: [ChildProcess] = []

    static let programs = ["dbus-daemon", "pipewire", "wireplumber", "wpctl", "pw-cli"]

    /// Why no PipeWire can be started here, or nil when every program is installed.
    static var unavailableReason: String? {
        let missing = programs.filter { SoundServer.tool($0) == nil }
        guard !missing.isEmpty else { return nil }
        return "\(missing.joined(separator: ", ")) not installed (scripts/install-deps --tests installs dbus, pipewire and wireplumber)"
    }

    init() throws {
        if let reason = Self.unavailableReason { throw ChildProcessError(message: reason) }
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("gb-pw-\(UUID().uuidString.prefix(8))")
        runtimeDirectory = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("home"), withIntermediateDirectories: true)
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    private func start() throws {
        let bus = directory.appendingPathComponent("bus").path
        try launch("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(bus)"])
        try waitFor("the session bus") { FileManager.default.fileExists(atPath: bus) }
        try launch("pipewire", [])
        let socket = runtimeDirectory.appendingPathComponent("pipewire-0").path
        try waitFor("pipewire's socket") { FileManager.default.fileExists(atPath: socket) }
        try launch("wireplumber", [])
        let node = "{ factory.name=support.null-audio-sink node.name=gesture-bridge-test media.class=Audio/Sink"
            + " object.linger=true audio.position=[FL FR] }"
        let created = try run("pw-cli", ["create-node", "adapter", node])
        guard created.status == 0 else { throw ChildProcessError(message: "pw-cli create-node: \(created.output)") }
        // Until wireplumber has chosen a default output, wpctl get-volume exits 0 all the same,
        // printing "Translate ID error" instead of the volume.
        try waitFor("wireplumber to choose the null sink as the default output") {
            (try? volume()) != nil
        }
    }

    deinit { stop() }

    private func stop() {
        for process in processes.reversed() { process.stop() }
        processes.removeAll()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The environment a client needs to reach this PipeWire and no other.
    var clientEnvironment: [String: String] {
        [
            "XDG_RUNTIME_DIR": runtimeDirectory.path,
            "HOME": directory.appendingPathComponent("home").path,
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=" + directory.appendingPathComponent("bus").path,
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LC_ALL": "C",
        ]
    }

    private func launch(_ program: String, _ arguments: [String]) throws {
        guard let executable = SoundServer.tool(program) else { throw ChildProcessError(message: "\(program) is not installed") }
        processes.append(try ChildProcess(executable: executable, arguments: arguments, environment: clientEnvironment))
    }

    private func waitFor(_ what: String, timeout: Double = 10, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            for process in processes {
                if let status = process.waitForExit(timeout: 0) {
                    throw ChildProcessError(message: "waiting for \(what): a server exited with status \(status): \(process.errorOutput)")
                }
            }
            guard Date() < deadline else {
                let logs = processes.map(\.errorOutput).joined(separator: "\n")
                throw ChildProcessError(message: "\(what) did not come within \(timeout) s:\n\(logs)")
            }
            usleep(50_000)
        }
    }

    /// Runs one of PipeWire's tools against this server; its exit status and everything it printed.
    @discardableResult
    func run(_ program: String, _ arguments: [String]) throws -> (status: Int32?, output: String) {
        guard let executable = SoundServer.tool(program) else { throw ChildProcessError(message: "\(program) is not installed") }
        let child = try ChildProcess(executable: executable, arguments: arguments, environment: clientEnvironment)
        let status = child.waitForExit(timeout: 5)
        return (status, child.output + child.errorOutput)
    }

    /// The default sink's volume in percent and whether it is muted, as wpctl reads them
    /// (`Volume: 0.45 [MUTED]`).
    func volume() throws -> (percent: Int, muted: Bool) {
        let result = try run("wpctl", ["get-volume", "@DEFAULT_AUDIO_SINK@"])
        let words = result.output.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard result.status == 0, let index = words.firstIndex(of: "Volume:"), index + 1 < words.count,
              let value = Double(words[index + 1]) else {
            throw ChildProcessError(message: "wpctl get-volume: \(result.output)")
        }
        return (Int((value * 100).rounded()), result.output.contains("[MUTED]"))
    }

    func setVolume(percent: Int) throws {
        let result = try run("wpctl", ["set-volume", "@DEFAULT_AUDIO_SINK@", "\(percent)%"])
        guard result.status == 0 else { throw ChildProcessError(message: "wpctl set-volume: \(result.output)") }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where PipeWire, wireplumber and dbus are installed, or where the
    /// end-to-end tests are required (`GESTUREBRIDGE_REQUIRE_XORG=1`, as on CI): then a
    /// missing program is a failure with its reason, not a skip.
    static var requiresPipeWire: Self {
        let reason = XorgAvailability.isRequired ? nil : PipeWireServer.unavailableReason
        return .enabled(if: reason == nil,
                        Comment(rawValue: reason.map { "needs a private PipeWire: \($0)" } ?? "PipeWire is installed"))
    }
}
