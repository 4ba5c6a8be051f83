import Foundation
import Testing

/// A test X server an application window can be opened on: a `RecorderWindow` works the same
/// on the inputtest server (`HeadlessXorg`) and on the real-driver ones (`RealDriverXorg`).
public protocol HeadlessDisplay: AnyObject {
    var displayName: String { get }
    var width: Int { get }
    var height: Int { get }
    /// The server's own temporary folder, gone with it.
    var runDirectory: URL { get }
}

extension HeadlessXorg: HeadlessDisplay {}

extension HeadlessDisplay {
    /// The environment for a child process (xinput, xdotool, the bridge) that talks to this server.
    ///
    /// Its home is a folder of the server's own: a bridge or `doctor` started here keeps its
    /// learned state and its config's copy there, never in the home of whoever runs the tests,
    /// where tests running at once (and every earlier run) would share them.
    public var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = displayName
        environment.removeValue(forKey: "XAUTHORITY")
        let home = runDirectory.appendingPathComponent("home")
        do {
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            Issue.record("the test display's home folder could not be made: \(error)")
        }
        environment["HOME"] = home.path
        for inherited in ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"] {
            environment.removeValue(forKey: inherited)
        }
        return environment
    }
}
