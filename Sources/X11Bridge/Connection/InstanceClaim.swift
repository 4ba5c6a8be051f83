import CX11
import Glibc

/// One running bridge per display, after ICCCM's manager selections: the bridge owns the
/// selection `_GESTURE_BRIDGE` through a window of its own that names its process
/// (`_NET_WM_PID`). Per display, not per screen as a window manager's: input devices are the
/// display's, and a bridge on each screen of `:0.0` and `:0.1` would each hear every raw event.
/// It owns its screen's `_GESTURE_BRIDGE_S<screen>` too, the name bridges before this one
/// claimed: an older bridge still running after an upgrade sees this one, and this one it.
///
/// A second bridge would find the button and touch grabs taken and still act on the raw input
/// it hears: every deep press would right-click twice, every knob step come twice. So it is
/// refused at start, naming the first (the installed systemd unit and the XDG autostart entry
/// can both start one). Should two start at the same moment, the one that took the selection
/// last keeps it and the other hears that it lost it (SelectionClear) and stops. The server
/// frees the selection when its owner's connection closes, however the bridge ended.
///
/// `run --replace` (the unit's, so that a restart after an upgrade runs the new program even
/// when the autostart entry started the old) takes the selection from the bridge running: it
/// hears so, lets go of everything it holds and exits, and the new one waits until its claim
/// window is gone, with its connection, before it takes any grab, which the old one's would
/// refuse.
public final class InstanceClaim {
    /// The exit status of a bridge that another one keeps from running: sysexits' EX_TEMPFAIL
    /// (try again later); the systemd unit does not restart on it.
    public static let exitStatus: Int32 = 75

    let selections: [Atom]
    let window: Window
    /// The bridge this one took the display over from (`replace`): its process id, when known.
    public let replaced: [Int?]

    private init(selections: [Atom], window: Window, replaced: [Int?]) {
        self.selections = selections
        self.window = window
        self.replaced = replaced
    }

    /// How long a bridge that is stopping has to let go (`pkill gesture-bridge; gesture-bridge
    /// run`): it hands back what it holds and exits within this.
    static let stoppingGrace = 1.0
    /// How long a new claim waits, in microseconds, for a bridge started at the same moment to
    /// take the selection too.
    static let settling: UInt32 = 100_000
    /// How long a bridge taking the display over (`replace`) waits for the one running to go.
    /// It lets go of what it holds at once, and closes its connection once what it learned is
    /// written: within milliseconds, unless its disk is very slow (or it is stopped, or too old
    /// to hear that it lost the display). On a slow disk a stopping bridge waits up to 2 s for
    /// the config it keeps and 10 s for its learned state before it closes: this is longer, so
    /// that a replaced bridge which is merely slow is waited for, and the display not left with none.
    public static let handOverGrace = 15.0

    /// The selections a bridge owns: the display's, and its screen's.
    private static func selections(on connection: XConnection) -> [Atom] {
        let names = ["_GESTURE_BRIDGE", "_GESTURE_BRIDGE_S\(connection.screenNumber)"]
        return names.map { name in XInternAtom(connection.display, name, 0) }
    }

    /// Takes the display's selection; throws when another bridge holds it and keeps it for
    /// `stoppingGrace`. With `replace`, takes it from the bridge holding it instead, and returns
    /// once that one has gone (its claim window destroyed, its connection closed, its grabs
    /// with it); throws when it is still there after `handOverGrace`.
    public static func take(on connection: XConnection, replace: Bool = false) throws(BridgeSetupError) -> InstanceClaim {
        let display = connection.display
        let selections = selections(on: connection)
        func owner() -> Window {
            selections.lazy.map { XGetSelectionOwner(display, $0) }.first { $0 != 0 } ?? 0
        }
        // The bridges to take over: a bridge of the version before owns the screen's name alone.
        var replacing: [(window: Window, process: Int?)] = []
        if replace {
            for owner in selections.map({ XGetSelectionOwner(display, $0) })
            where owner != 0 && !replacing.contains(where: { $0.window == owner }) {
                replacing.append((owner, processID(of: owner, on: connection)))
            }
        }
        var found = replace ? 0 : owner()
        var waited = 0.0
        while found != 0, waited < stoppingGrace {
            usleep(50_000)
            waited += 0.05
            found = owner()
        }
        if found != 0 {
            throw .alreadyRunning(display: connection.displayName, process: processID(of: found, on: connection))
        }
        // An input-only window, never mapped: nothing to see, nothing to draw.
        var attributes = XSetWindowAttributes()
        let window = XCreateWindow(display, connection.root, -1, -1, 1, 1, 0, 0, UInt32(InputOnly), nil, 0, &attributes)
        // A format-32 property is passed as C longs.
        let pid = [UInt(getpid())]
        pid.withUnsafeBytes { bytes in
            _ = XChangeProperty(display, window, XInternAtom(display, "_NET_WM_PID", 0), XA_CARDINAL, 32, PropModeReplace,
                                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
        }
        for selection in selections { XSetSelectionOwner(display, selection, window, UInt(CurrentTime)) }
        // The bridge running heard that it lost the display (SelectionClear): it lets go and
        // exits. Its grabs go only with its connection, and until then a grab of this one's
        // would be refused.
        if !replacing.isEmpty {
            var waited = 0.0
            var staying = replacing.filter { exists($0.window, on: connection) }
            while !staying.isEmpty, waited < handOverGrace {
                usleep(50_000)
                waited += 0.05
                staying = staying.filter { exists($0.window, on: connection) }
            }
            if let stayed = staying.first {
                XDestroyWindow(display, window)
                XSync(display, 0)
                throw .didNotHandOver(display: connection.displayName, process: stayed.process, waited: handOverGrace)
            }
        }
        // Another bridge may have taken it between the look and the take, or take it a moment
        // later (two started together at login): the last to take it keeps it. Looking again
        // after a moment settles it before either takes a grab, which the other's would refuse.
        for pause in [0, settling] {
            usleep(pause)
            if let other = selections.lazy.map({ XGetSelectionOwner(display, $0) }).first(where: { $0 != window }) {
                XDestroyWindow(display, window)
                throw .alreadyRunning(display: connection.displayName, process: processID(of: other, on: connection))
            }
        }
        return InstanceClaim(selections: selections, window: window, replaced: replacing.map(\.process))
    }

    /// Whether `window` still exists: a query that, for a window gone, the server refuses, the
    /// refusal expected and dropped.
    private static func exists(_ window: Window, on connection: XConnection) -> Bool {
        let first = connection.nextRequestSerial
        var attributes = XWindowAttributes()
        let found = XGetWindowAttributes(connection.display, window, &attributes) != 0
        XErrorLog.discard(display: UInt(bitPattern: connection.display), serials: first..<connection.nextRequestSerial)
        return found
    }

    /// The property of the claim's window naming the config file the bridge reads again when it
    /// changes: what `calibrate --write` asks before it says a running bridge takes its binding.
    static let watchedConfigProperty = "_GESTURE_BRIDGE_WATCHED_CONFIG"

    /// Says, on the claim's window, which config file this bridge reads again when it changes;
    /// none (`run --no-watch`) removes the property.
    public func publish(watchedConfig path: String?, on connection: XConnection) {
        let display = connection.display
        let property = XInternAtom(display, Self.watchedConfigProperty, 0)
        guard let path else {
            XDeleteProperty(display, window, property)
            return
        }
        let bytes = Array(path.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            _ = XChangeProperty(display, window, property, XInternAtom(display, "UTF8_STRING", 0), 8, PropModeReplace,
                                buffer.baseAddress, Int32(clamping: buffer.count))
        }
    }

    /// The bridge running on the display, as its claim says: its process id, and the config
    /// file it reads again when it changes (nil when it does not watch one); nil when none runs.
    public static func runningBridge(on connection: XConnection) -> (process: Int?, watchedConfig: String?)? {
        let display = connection.display
        guard let owner = selections(on: connection).lazy.map({ XGetSelectionOwner(display, $0) }).first(where: { $0 != 0 }) else {
            return nil
        }
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(display, owner, XInternAtom(display, watchedConfigProperty, 0), 0, 4096, 0,
                                        XInternAtom(display, "UTF8_STRING", 0), &type, &format, &count, &remaining, &data)
        defer { if let data { XFree(data) } }
        let watched = status == Success && format == 8 && count > 0
            ? data.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(count)), as: UTF8.self) } : nil
        return (processID(of: owner, on: connection), watched)
    }

    /// Whether a SelectionClear for `selection` on `window` says this claim was taken over: the
    /// selection is another's now. One nobody owns any more was taken by a bridge that gave up
    /// waiting for this one to go (this one stopped meanwhile, Ctrl-Z): it is taken back. Found
    /// in review of a terminal's life: continued with `fg`, the bridge read the old clear, left
    /// on a take-over that never happened, and no bridge ran.
    func isLost(selection cleared: Atom, window owner: Window, on connection: XConnection) -> Bool {
        guard selections.contains(cleared), owner == window else { return false }
        let display = connection.display
        guard XGetSelectionOwner(display, cleared) == 0 else { return true }
        XSetSelectionOwner(display, cleared, window, UInt(CurrentTime))
        return XGetSelectionOwner(display, cleared) != window
    }

    /// The process id the owning bridge wrote on its window; nil when it cannot be read (the
    /// window went meanwhile).
    private static func processID(of window: Window, on connection: XConnection) -> Int? {
        guard window != 0 else { return nil }
        let display = connection.display
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(display, window, XInternAtom(display, "_NET_WM_PID", 0), 0, 1, 0, XA_CARDINAL,
                                        &type, &format, &count, &remaining, &data)
        defer { if let data { XFree(data) } }
        // A format-32 property comes back as C longs, whatever their size.
        guard status == Success, type == XA_CARDINAL, format == 32, count == 1, let data else { return nil }
        return data.withMemoryRebound(to: UInt.self, capacity: 1) { Int($0.pointee) }
    }
}
