import Foundation
import Glibc
import Testing
import XorgTestSupport

/// A private PulseAudio server for a test: one null sink (an output that plays into
/// nothing), reached through its own socket, in a temporary runtime and home directory, so
/// nothing of the machine's own sound setup is read or changed.
///
/// Running as root: PulseAudio then only warns that it is "not intended to be run as root";
/// `--system=false` keeps it a per-user server (a system-wide one would want the `pulse`
/// user and the system socket), and the temporary HOME and XDG_RUNTIME_DIR keep its cookie,
/// state and lock away from root's own. It cannot reach D-Bus here and says so, harmlessly.
/// `--exit-idle-time=-1` keeps it alive with no clients between the test's pactl calls; the
/// socket module takes anonymous clients, so no cookie needs sharing.
final class SoundServer {
    let directory: URL
    /// For `PULSE_SERVER`: `unix:/…/native`.
    let address: String
    private let process: ChildProcess

    static let sinkName = "gesture_bridge_test"

    /// pulseaudio and pactl from PATH's usual places; nil names what is missing.
    static func tool(_ name: String) -> String? {
        ["/usr/bin", "/usr/local/bin", "/bin"].map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Why no server can be started here, or nil when both programs are installed.
    static var unavailableReason: String? {
        let missing = ["pulseaudio", "pactl"].filter { tool($0) == nil }
        guard !missing.isEmpty else { return nil }
        return "\(missing.joined(separator: " and ")) not installed (scripts/install-deps --tests installs pulseaudio and pulseaudio-utils)"
    }

    init() throws {
        if let reason = Self.unavailableReason { throw ChildProcessError(message: reason) }
        guard let pulseaudio = Self.tool("pulseaudio") else { throw ChildProcessError(message: "no pulseaudio") }
        // Short: the socket's path must fit in 108 bytes.
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("gb-pulse-\(UUID().uuidString.prefix(8))")
        let runtime = directory.appendingPathComponent("runtime")
        let home = directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("native").path
        address = "unix:\(socket)"
        process = try ChildProcess(executable: pulseaudio, arguments: [
            "-n", "--daemonize=no", "--system=false", "--exit-idle-time=-1", "--disallow-exit", "--disable-shm",
            "--log-target=stderr", "--log-level=notice",
            "--load=module-null-sink sink_name=\(Self.sinkName)",
            "--load=module-native-protocol-unix auth-anonymous=1 socket=\(socket)",
        ], environment: [
            "HOME": home.path, "XDG_RUNTIME_DIR": runtime.path, "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "PATH": "/usr/local/bin:/usr/bin:/bin",
        ])
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? pactl(["get-sink-volume", "@DEFAULT_SINK@"]))?.status == 0 { return }
            if let status = process.waitForExit(timeout: 0.05) {
                throw ChildProcessError(message: "pulseaudio exited with status \(status): \(process.errorOutput)")
            }
        }
        throw ChildProcessError(message: "pulseaudio did not answer within 10 s: \(process.errorOutput)")
    }

    deinit {
        process.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The environment a client needs to reach this server and no other.
    var clientEnvironment: [String: String] {
        ["PULSE_SERVER": address, "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": directory.appendingPathComponent("home").path,
         "LC_ALL": "C"]
    }

    /// A client PATH whose first folder holds a `name` tool that runs `script` (shell text) in
    /// place of the real one, which stays behind it.
    func path(withStandIn name: String, running script: String) throws -> String {
        let folder = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let tool = folder.appendingPathComponent(name)
        try "#!/bin/sh\n\(script)\n".write(to: tool, atomically: true, encoding: .utf8)
        chmod(tool.path, 0o755)
        return "\(folder.path):/usr/local/bin:/usr/bin:/bin"
    }

    /// Runs pactl against this server; its exit status and everything it printed.
    @discardableResult
    func pactl(_ arguments: [String]) throws -> (status: Int32?, output: String) {
        guard let pactl = Self.tool("pactl") else { throw ChildProcessError(message: "pactl is not installed") }
        let child = try ChildProcess(executable: pactl, arguments: arguments, environment: clientEnvironment)
        let status = child.waitForExit(timeout: 5)
        return (status, child.output + child.errorOutput)
    }

    /// The default sink's loudest channel in percent, as pactl reads it (`… 26214 /  40% / …`).
    func volumePercent() throws -> Int {
        guard let loudest = try channelPercents().max() else { throw ChildProcessError(message: "pactl read no channel") }
        return loudest
    }

    /// Each channel of the default sink in percent, in pactl's order (front-left, front-right).
    func channelPercents() throws -> [Int] {
        let result = try pactl(["get-sink-volume", "@DEFAULT_SINK@"])
        let percents = result.output.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" })
            .filter { $0.hasSuffix("%") }.compactMap { Int($0.dropLast()) }
        guard result.status == 0, !percents.isEmpty else {
            throw ChildProcessError(message: "pactl get-sink-volume: \(result.output)")
        }
        return percents
    }

    func setVolume(percent: Int) throws {
        let result = try pactl(["set-sink-volume", "@DEFAULT_SINK@", "\(percent)%"])
        guard result.status == 0 else { throw ChildProcessError(message: "pactl set-sink-volume: \(result.output)") }
    }

    func isMuted() throws -> Bool {
        let result = try pactl(["get-sink-mute", "@DEFAULT_SINK@"])
        guard result.status == 0 else { throw ChildProcessError(message: "pactl get-sink-mute: \(result.output)") }
        return result.output.contains("Mute: yes")
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only where pulseaudio and pactl are installed, or where the end-to-end
    /// tests are required (`GESTUREBRIDGE_REQUIRE_XORG=1`, as on CI): then a missing program
    /// is a failure with its reason, not a skip.
    static var requiresSoundServer: Self {
        let reason = XorgAvailability.isRequired ? nil : SoundServer.unavailableReason
        return .enabled(if: reason == nil,
                        Comment(rawValue: reason.map { "needs a private PulseAudio server: \($0)" } ?? "pulseaudio and pactl are installed"))
    }
}
