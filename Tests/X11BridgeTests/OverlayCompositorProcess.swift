import CX11
import Foundation
import Testing

/// xcompmgr, a small real compositor, on a test display: for the tests of the ARGB path.
/// Optional: where it is not installed those tests are skipped (CI need not have it).
final class OverlayCompositorProcess {
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/xcompmgr" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    private let process: ChildProcess
    private let display: OpaquePointer
    private let selection: Atom

    /// Starts it and waits until it owns the compositor selection, as the overlay checks.
    init(on screen: OverlayTestDisplay) throws {
        guard let executable = Self.executable else {
            throw OverlayTestDisplayError(message: "xcompmgr is not installed")
        }
        // -n: plain compositing, no shadows, whose pixels would spoil the colour checks.
        process = try ChildProcess(executable: executable, arguments: ["-n", "-d", screen.connection.displayName],
                                   environment: [:])
        let selection = XInternAtom(screen.display, "_NET_WM_CM_S\(screen.connection.screenNumber)", 0)
        display = screen.display
        self.selection = selection
        for _ in 0..<500 where XGetSelectionOwner(screen.display, selection) == 0 {
            usleep(10_000)
        }
        guard XGetSelectionOwner(screen.display, selection) != 0 else {
            process.stop()
            throw OverlayTestDisplayError(message: "xcompmgr did not take the compositor selection: \(process.errorOutput)")
        }
    }

    /// The compositor paints on its own schedule: once the server has taken everything sent on
    /// the test's display, waits until the compositor has painted it and sleeps again.
    /// False when it still painted after the wait's timeout.
    func settle() throws -> Bool {
        XSync(display, 0)
        return try process.waitUntilAsleep(quiet: 0.1)
    }

    /// Stops it and waits until the server has let its selection go.
    func stop() {
        process.stop()
        for _ in 0..<500 where XGetSelectionOwner(display, selection) != 0 {
            usleep(10_000)
        }
    }
}

extension Trait where Self == ConditionTrait {
    static var requiresCompositor: Self {
        .enabled(if: OverlayCompositorProcess.executable != nil && OverlayXvfbAvailability.executable != nil,
                 "needs xcompmgr and Xvfb on PATH (optional: the ARGB path under a real compositor)")
    }
}
