import CX11
import Foundation
import Testing

/// A real compositor on a test display: xcompmgr for the tests of the ARGB path, picom with
/// its shadows on for the shadows. Optional: where it is not installed those tests are skipped.
final class OverlayCompositorProcess {
    enum Program: String {
        /// `-n`: plain compositing, no shadows, whose pixels would spoil the colour checks.
        case xcompmgr
        /// picom with shadows on (`--shadow`), as many a desktop runs it, drawn by XRender.
        case picomWithShadows = "picom"

        var executable: String? {
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            return path.split(separator: ":").map { $0 + "/" + rawValue }.first { FileManager.default.isExecutableFile(atPath: $0) }
        }

        func arguments(display: String) -> [String] {
            switch self {
            case .xcompmgr: ["-n", "-d", display]
            // No config file of the tester's own: picom's defaults and these switches alone.
            case .picomWithShadows: ["--config", "/dev/null", "--backend", "xrender", "--shadow", "--no-fading-openclose"]
            }
        }

        /// picom takes its display from the environment only.
        func environment(display: String) -> [String: String] {
            switch self {
            case .xcompmgr: [:]
            case .picomWithShadows: ["DISPLAY": display]
            }
        }
    }

    static let executable = Program.xcompmgr.executable

    private let process: ChildProcess
    private let display: OpaquePointer
    private let selection: Atom

    /// Starts it and waits until it owns the compositor selection, as the overlay checks.
    init(on screen: OverlayTestDisplay, program: Program = .xcompmgr) throws {
        guard let executable = program.executable else {
            throw OverlayTestDisplayError(message: "\(program.rawValue) is not installed")
        }
        process = try ChildProcess(executable: executable, arguments: program.arguments(display: screen.connection.displayName),
                                   environment: program.environment(display: screen.connection.displayName))
        let selection = XInternAtom(screen.display, "_NET_WM_CM_S\(screen.connection.screenNumber)", 0)
        display = screen.display
        self.selection = selection
        for _ in 0..<500 where XGetSelectionOwner(screen.display, selection) == 0 {
            usleep(10_000)
        }
        guard XGetSelectionOwner(screen.display, selection) != 0 else {
            process.stop()
            throw OverlayTestDisplayError(message: "\(program.rawValue) did not take the compositor selection: \(process.errorOutput)")
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

    static var requiresPicom: Self {
        .enabled(if: OverlayCompositorProcess.Program.picomWithShadows.executable != nil && OverlayXvfbAvailability.executable != nil,
                 "needs picom and Xvfb on PATH (scripts/install-deps installs them): shadows under a real compositor")
    }
}
