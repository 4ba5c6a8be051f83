import GestureKit

/// Why the bridge cannot start in this session, worded for the person who ran it.
public enum BridgeSetupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `variable` is what gave the Wayland session away (`WAYLAND_DISPLAY=wayland-0`).
    case waylandSession(variable: String)
    /// The X server on `display` is Xwayland, as `sign` shows, whatever the environment says.
    case xwaylandServer(display: String, sign: String)
    /// `service`: the bridge runs as a systemd service (`INVOCATION_ID` is set), whose
    /// environment the session did not give DISPLAY.
    case noDisplay(service: Bool)
    case cannotOpenDisplay(String)
    /// The display opens without its screen number, and has no such screen: `screens` it has.
    case noSuchScreen(display: String, screen: Int, screens: Int)
    case xinputMissing(display: String)
    case xinputTooOld(display: String, major: Int, minor: Int)
    case xtestMissing(display: String)
    /// The server refused to deliver the events the bridge needs.
    case selectionFailed(String)
    /// Another bridge runs on the display (`InstanceClaim`); `process` is its id, when known.
    case alreadyRunning(display: String, process: Int?)
    /// The bridge running was told another takes the display over (`run --replace`) and was
    /// still there `waited` seconds later.
    case didNotHandOver(display: String, process: Int?, waited: Double)

    /// The exit status: 78 (EX_CONFIG) for a Wayland session, which the bridge cannot run in
    /// however often it starts and the systemd user unit does not restart on; 1 else (a service
    /// started before the session gave the user manager DISPLAY is started again).
    public var exitStatus: Int32 {
        switch self {
        // A server without XInput 2.2 (x2go's nxagent has 1.3) never will have it: as a Wayland
        // session, a session the bridge cannot run in, which the service does not start again
        // on and the autostart entry does not list as failed (found in review of remote desktops).
        case .waylandSession, .xwaylandServer, .xinputMissing, .xinputTooOld: return Self.wrongSessionStatus
        case .noDisplay, .cannotOpenDisplay, .noSuchScreen, .xtestMissing, .selectionFailed, .didNotHandOver: return 1
        case .alreadyRunning: return InstanceClaim.exitStatus
        }
    }

    /// Why a Wayland session will not do.
    static let x11Only = """
        GestureBridge is X11-only: under Wayland an X client sees the pen and touches only over \
        other X clients' windows, and its clicks reach only those, so most applications would \
        get no gesture.
        """

    /// See `exitStatus`; dist/gesture-bridge.service names it.
    public static let wrongSessionStatus: Int32 = 78

    public var description: String {
        switch self {
        case .waylandSession(let variable):
            return """
                this is a Wayland session (\(variable)). \(Self.x11Only) Log out \
                and choose an X11 session at the login screen (for example "GNOME on Xorg" or \
                "Plasma (X11)"), then run it again. If the session really is X11, set \
                XDG_SESSION_TYPE=x11 (for the service: `systemctl --user set-environment XDG_SESSION_TYPE=x11`).
                """
        case .xwaylandServer(let display, let sign):
            return """
                the X server on \(display) is Xwayland, a Wayland session's X server (\(sign)). \
                \(Self.x11Only) Run it in an X11 session, with DISPLAY naming its X server: at the \
                login screen, a session such as "GNOME on Xorg" or "Plasma (X11)".
                """
        case .noDisplay(service: false):
            return """
                DISPLAY is not set, so there is no X server to connect to. Run gesture-bridge from a \
                terminal inside your X11 desktop session, or set DISPLAY (for example DISPLAY=:0).
                """
        case .noDisplay(service: true):
            return """
                DISPLAY is not set in the service's environment: the X session did not pass it to the \
                systemd user manager. Have the session run `systemctl --user import-environment \
                DISPLAY XAUTHORITY` as it starts (most X session scripts do; add it to ~/.xprofile \
                otherwise), then `systemctl --user restart gesture-bridge`.
                """
        case .cannotOpenDisplay(let name):
            return """
                cannot open the X display "\(name)". Check that the X server is running and that you \
                may connect to it (XAUTHORITY, or `xhost` for another user).
                """
        case .noSuchScreen(let display, let screen, let screens):
            let has = screens == 1 ? "screen 0 only" : "screens 0 to \(screens - 1)"
            return "the X display \(display) has no screen \(screen): it has \(has). Set DISPLAY=\(display) (or \(display).0)."
        case .xinputMissing(let display):
            return "the X server on \(display) has no XInput extension; GestureBridge needs XInput 2.2 for pens and touch."
        case .xinputTooOld(let display, let major, let minor):
            return "the X server on \(display) has XInput \(major).\(minor); GestureBridge needs XInput 2.2 or newer for pens and touch, which Xorg has (since 1.12) and some remote desktops' servers do not (x2go's): run it in the session of a local Xorg."
        case .xtestMissing(let display):
            return """
                the X server on \(display) has no XTEST extension, so GestureBridge cannot send clicks or \
                keys. Enable it in the server's config (Section "Extensions", Option "XTEST" "Enable"), \
                or use --dry-run to only print the gestures (the presses they claim are still kept \
                from the applications).
                """
        case .selectionFailed(let detail):
            return "the X server refused the input events GestureBridge listens to: \(detail)"
        case .alreadyRunning(let display, let process):
            let which = process.map { "gesture-bridge (process \($0))" } ?? "gesture-bridge"
            if let process, Self.isStopped(process) {
                // Ctrl-Z: a stopped process takes a SIGTERM only once it goes on, and cannot hand
                // the display over (`run --replace`) either.
                return """
                    another \(which) holds display \(display), stopped (Ctrl-Z, or SIGSTOP): it acts on \
                    no gesture, and still keeps the display from this one. Let it go on (`fg` in its \
                    terminal, or `kill -CONT \(process)`) and stop it there, or end it with `kill -9 \(process)`; \
                    then run this one again.
                    """
            }
            let stop = process.map { "`systemctl --user stop gesture-bridge` if the service runs it, else `kill \($0)`" }
                ?? "`systemctl --user stop gesture-bridge` if the service runs it"
            return """
                another \(which) is running on display \(display): two would each act on every gesture \
                (a deep press would right-click twice). Stop it first (\(stop)), or take the display \
                over from it with `gesture-bridge run --replace`.
                """
        case .didNotHandOver(let display, let process, let waited):
            let which = process.map { "gesture-bridge (process \($0))" } ?? "gesture-bridge"
            let kill = process.map { "`kill \($0)`, or `kill -9 \($0)` if it stays" } ?? "`pkill -x gesture-bridge`"
            return """
                the \(which) running on display \(display) was asked to hand the display over and was \
                still there \(Int(waited)) s later (stopped with Ctrl-Z, or too old to hear the request?), \
                so this one does not run beside it. Stop it (\(kill)), then start this one again.
                """
        }
    }

    /// Whether process `pid` is a gesture-bridge of this machine, stopped (Ctrl-Z, SIGSTOP): its
    /// name and state in /proc/PID/stat (the id a window names may be another machine's, over a
    /// remote X). False when unknown.
    static func isStopped(_ pid: Int) -> Bool {
        guard let bytes = try? FileContents.read("/proc/\(pid)/stat") else { return false }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close,
              text[text.index(after: open)..<close] == "gesture-bridge" else { return false }
        let state = text[text.index(after: close)...].split(separator: " ").first
        return state == "T" || state == "t"
    }
}
