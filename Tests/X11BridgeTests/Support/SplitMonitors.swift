import Foundation
import Testing
import XorgTestSupport

/// Several RandR monitors on the headless Xorg's one output, made as a user would: with
/// `xrandr --setmonitor`. The dummy driver's output is `DUMMY0`; giving it to the first
/// monitor takes away the automatic monitor that would otherwise cover the whole screen.
enum SplitMonitors {
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/xrandr" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// The headless Xorg's output.
    static let output = "DUMMY0"

    /// A monitor as `--setmonitor` takes it: `W/mmW x H/mmH + X + Y`, at 96 dpi.
    static func geometry(x: Int, y: Int, width: Int, height: Int) -> String {
        "\(width)/\(millimeters(width))x\(height)/\(millimeters(height))+\(x)+\(y)"
    }

    static func millimeters(_ pixels: Int) -> Int { Int((Double(pixels) * 25.4 / 96).rounded()) }

    /// Splits the screen into LEFT and RIGHT halves, in that order.
    static func halves(_ server: HeadlessXorg) throws {
        let half = server.width / 2
        try xrandr(["--setmonitor", "LEFT", geometry(x: 0, y: 0, width: half, height: server.height), output], server)
        try xrandr(["--setmonitor", "RIGHT", geometry(x: half, y: 0, width: server.width - half, height: server.height), "none"], server)
    }

    static func xrandr(_ arguments: [String], _ server: HeadlessXorg) throws {
        guard let executable else { throw ChildProcessError(message: "xrandr is not installed (x11-xserver-utils)") }
        let child = try ChildProcess(executable: executable, arguments: arguments, environment: BridgeProcess.environment(server))
        let status = child.waitForExit(timeout: 5)
        guard status == 0 else {
            throw ChildProcessError(message: "xrandr \(arguments.joined(separator: " ")) exited with \(status.map(String.init) ?? "no status"): \(child.errorOutput)")
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// A headless Xorg and xrandr to split it into monitors.
    static var requiresXrandr: Self {
        .enabled(if: SplitMonitors.executable != nil || XorgAvailability.isRequired,
                 "needs xrandr on PATH (x11-xserver-utils)")
    }
}
