import Foundation

/// A test X server an application window can be opened on: a `RecorderWindow` works the same
/// on the inputtest server (`HeadlessXorg`) and on the real-driver ones (`RealDriverXorg`).
public protocol HeadlessDisplay: AnyObject {
    var displayName: String { get }
    var width: Int { get }
    var height: Int { get }
}

extension HeadlessXorg: HeadlessDisplay {}

extension HeadlessDisplay {
    /// The environment for a child process (xinput, xdotool, the bridge) that talks to this server.
    public var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = displayName
        environment.removeValue(forKey: "XAUTHORITY")
        return environment
    }
}
