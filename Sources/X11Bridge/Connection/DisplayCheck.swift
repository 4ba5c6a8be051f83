import Glibc

/// Decides from the environment whether there is an X11 session to join, before any
/// connection is attempted, so a Wayland user gets an answer instead of a half-working bridge.
/// (The server is asked too, once connected: `XConnection.xwaylandSign`.)
public enum DisplayCheck {
    /// The display to open, or the reason there is none.
    ///
    /// A session that says it is X11 (`XDG_SESSION_TYPE=x11`) is believed whatever else is set:
    /// a Wayland compositor nested in an X11 desktop sets `WAYLAND_DISPLAY` for its terminals.
    /// Else the Wayland variables count only while the compositor's socket they name is there.
    /// Found in review of a Wayland user's week: a systemd user manager that outlived a Wayland
    /// login kept `WAYLAND_DISPLAY` into the next X11 one, and the service and the autostart
    /// entry refused every X11 login since, telling the user to choose X11.
    public static func displayName(environment: [String: String]) throws(BridgeSetupError) -> String {
        let type = environment["XDG_SESSION_TYPE"]
        if type?.lowercased() != "x11" {
            let wayland = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
            if type?.lowercased() == "wayland" || wayland != nil,
               waylandSocketExists(wayland ?? "wayland-0", runtimeDirectory: environment["XDG_RUNTIME_DIR"]) != false {
                throw .waylandSession(variable: wayland.map { "WAYLAND_DISPLAY=\($0)" } ?? "XDG_SESSION_TYPE=\(type ?? "")")
            }
        }
        guard let display = environment["DISPLAY"], !display.isEmpty else {
            throw .noDisplay(service: environment["INVOCATION_ID"] != nil)
        }
        return display
    }

    /// Whether the socket a Wayland client would connect to for `name` is there: a path, or a
    /// name in the runtime directory. Nil when that cannot be told (no runtime directory for a
    /// name: the variables are believed then).
    static func waylandSocketExists(_ name: String, runtimeDirectory: String?) -> Bool? {
        let path: String
        if name.hasPrefix("/") {
            path = name
        } else if let runtimeDirectory, runtimeDirectory.hasPrefix("/") {
            path = runtimeDirectory + "/" + name
        } else {
            return nil
        }
        return access(path, F_OK) == 0
    }
}
