/// Decides from the environment whether there is an X11 session to join, before any
/// connection is attempted, so a Wayland user gets an answer instead of a half-working bridge.
public enum DisplayCheck {
    /// The display to open, or the reason there is none.
    public static func displayName(environment: [String: String]) throws(BridgeSetupError) -> String {
        if let type = environment["XDG_SESSION_TYPE"], type.lowercased() == "wayland" {
            throw .waylandSession(variable: "XDG_SESSION_TYPE=\(type)")
        }
        if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
            throw .waylandSession(variable: "WAYLAND_DISPLAY=\(wayland)")
        }
        guard let display = environment["DISPLAY"], !display.isEmpty else {
            throw .noDisplay(service: environment["INVOCATION_ID"] != nil)
        }
        return display
    }
}
