import Foundation
import Testing
import X11Bridge
import XorgTestSupport

/// An Xvfb server for tests of the X layer that need no pen or touchscreen (connection,
/// errors, XTest, keyboard mapping). It picks a free display number itself (-displayfd).
final class VirtualFramebuffer {
    static let executable = "/usr/bin/Xvfb"

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    let displayName: String
    private let process: ChildProcess

    init() throws {
        XlibThreads.initialize()
        let process = try ChildProcess(
            executable: Self.executable,
            arguments: ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1024x768x24", "-noreset"],
            environment: [:])
        self.process = process
        // Xvfb writes the display number and a newline once it accepts connections.
        process.waitForOutput(timeout: 10) { output, _ in output.contains("\n") }
        let number = process.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !number.isEmpty, Int(number) != nil else {
            process.stop()
            throw ChildProcessError(message: "Xvfb did not report a display number: \(process.errorOutput)")
        }
        displayName = ":" + number
        // Suites on Xvfb run side by side and open and close XI connections as they go: the
        // same libXi record and XInitThreads as on Xorg (`XInputExtensionAnchor`).
        XInputExtensionAnchor.ensure(displayName: displayName)
    }

    deinit {
        stop()
    }

    /// Call it after closing the connections to it (a `defer` written before theirs): Swift
    /// may release an object after its last use, and a server gone under a live connection
    /// means SIGPIPE for the test process.
    func stop() {
        process.stop()
    }
}

/// A suite whose every test has a fresh Xvfb and a connection to it opened as the bridge opens
/// its own (XTest required); the connection closed, then the server stopped, after the test,
/// pass or fail.
class XvfbSuite {
    let server: VirtualFramebuffer
    let connection: XConnection

    init() throws {
        server = try VirtualFramebuffer()
        connection = try XConnection.open(name: server.displayName, requirements: .init(xtest: true))
    }

    deinit {
        connection.close()
        server.stop()
    }
}

extension Trait where Self == ConditionTrait {
    static var requiresXvfb: Self {
        .enabled(if: VirtualFramebuffer.isInstalled, "needs Xvfb (\(VirtualFramebuffer.executable))")
    }
}
