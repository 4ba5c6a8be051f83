import Foundation
import Glibc
import Testing
import XorgTestSupport

/// An Xvfb server: an X session with a mouse and a keyboard and nothing that reports pressure,
/// like a desktop without a pen tablet or touchscreen. It picks a free display number itself.
final class XvfbDisplay {
    static let executable = "/usr/bin/Xvfb"

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let displayName: String
    private let process: Process

    /// `extraArguments` go to Xvfb, e.g. `["-extension", "XTEST"]` to leave an extension out.
    init(extraArguments: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        let numberPipe = Pipe()
        // -displayfd: Xvfb writes the display number and a newline to this descriptor (its
        // standard output here) once it accepts connections.
        process.arguments = ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1024x768x24", "-noreset"] + extraArguments
        process.standardOutput = numberPipe
        process.standardError = FileHandle.nullDevice
        try ChildProcessLauncher.run(process)
        self.process = process
        guard let number = Self.readLine(from: numberPipe.fileHandleForReading.fileDescriptor, timeout: 10),
              Int(number) != nil else {
            process.terminate()
            process.waitUntilExit()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "Xvfb did not report a display number"])
        }
        displayName = ":" + number
    }

    deinit {
        stop()
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// A clean environment for a client of this server: no user config, no Wayland.
    var clientEnvironment: [String: String] {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("gesture-bridge-no-home").path
        return ["DISPLAY": displayName, "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "XDG_CONFIG_HOME": home + "/config"]
    }

    private static func readLine(from descriptor: Int32, timeout: Double) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        var byte: UInt8 = 0
        while !text.hasSuffix("\n") {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(remaining * 1000) + 1) > 0, read(descriptor, &byte, 1) == 1 else { return nil }
            text.append(Character(UnicodeScalar(byte)))
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension Trait where Self == ConditionTrait {
    static var requiresXvfb: Self {
        .enabled(if: XvfbDisplay.isInstalled, "needs Xvfb (\(XvfbDisplay.executable))")
    }
}
