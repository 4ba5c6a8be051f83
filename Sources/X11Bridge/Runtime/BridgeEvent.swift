import GestureKit

/// Everything the running bridge tells its owner, in order: the command prints gestures and
/// actions and logs the rest.
public enum BridgeEvent: Sendable {
    /// Listening has begun; `devices` are the contact sources (pens, touchscreens, mice).
    case started(devices: [X11Device], screen: ScreenSize, monitors: MonitorLayout)
    case engine(EngineOutput)
    /// Devices came, changed or went; the contacts of removed ones were cancelled.
    case devicesChanged(DeviceChanges)
    case screenResized(ScreenSize)
    /// The screen's monitors changed (RandR): knobs centered on one and the feedback follow.
    case monitorsChanged(MonitorLayout)
    /// A knob's center names a monitor that is not connected (`connected` are those that
    /// are): it is measured from the root window's corners until that monitor comes. Told at
    /// start, after a reload, and when a change leaves a monitor missing that was not before.
    case monitorMissing(binding: String, monitor: String, connected: [String])
    /// A binding names a device (`devices: [{name: ...}]`) that is not connected: it listens to
    /// no device by that name until one comes. `connected`: the names of the pens, touchscreens
    /// and mice that are; `suggestion`: the one of them close to `name` (a typo), if any. Told
    /// at start, after a reload, and when a change of devices leaves a name missing that was
    /// not before (or makes another suggestion).
    case deviceMissing(binding: String, name: String, connected: [String], suggestion: String?)
    /// The config file was read again (on SIGHUP, or because it changed) and the new
    /// bindings apply to new contacts.
    case configurationReloaded(source: String, bindings: BindingSet)
    /// The config file read again was broken; the old bindings stay. `message` has file:line:column.
    case configurationRejected(source: String, message: String)
    /// SIGHUP arrived but there is no file to read again.
    case reloadUnavailable
    /// Stopped from its terminal (Ctrl-Z, SIGTSTP), everything let go first.
    case suspended
    /// Continued after `suspended` (`fg`, SIGCONT): listening again.
    case resumed
    /// The watched config file was removed; the bindings running stay.
    case configurationFileRemoved(path: String)
    /// Changes to the config file are no longer noticed (its directory went away).
    case configurationUnwatched(path: String, reason: String)
    /// SIGHUP took the watch of the config file `path` again (lost, or never made at start).
    case configurationWatched(path: String)
    case actionFailed(ActionEvent, ActionFailure)
    /// A command an action started ended badly (a non-zero status, a signal): its binding, its
    /// argv, its pid and how it ended. Reported by the performer, after its action.
    case commandFailed(CommandFailure)
    /// The performer let go of buttons or keys it held, and why.
    case releasedHeldInput(reason: String)
    case xError(XProtocolError)
    /// What became of held-back pen and mouse input: kept for a gesture or replayed, why, and
    /// how long it was held.
    case inputOwnership(OwnershipReport)
    /// A pen's or mouse's stroke that no gesture follows any more: its motion goes unread
    /// until the lift, which costs the bridge nothing while the stroke goes on.
    case motionUnheard(device: Int)
    /// A device's declared pressure never moved over several contacts (`PressureLiveness`):
    /// it counts as without pressure until it does (`dead` false then).
    case pressureDead(device: Int, name: String, dead: Bool)
    /// The bridge stops, for `reason`: by `signal` (SIGINT, SIGTERM, SIGHUP as its terminal
    /// closed), or nil.
    case stopping(signal: Int32?, reason: StopReason)
}

/// Why the bridge stops, as `run --json`'s `stopping` line says it: a reader of the stream
/// cannot see the exit status. Found in review of a `--json` consumer: the X server gone
/// printed no `stopping` line at all, and another bridge taking over a `signal` of null.
public enum StopReason: String, Sendable, Hashable {
    /// SIGINT or SIGTERM (Ctrl-C, a service stopped).
    case signal
    /// The terminal it ran in closed (SIGHUP from it).
    case terminalClosed = "terminal-closed"
    /// Another gesture-bridge took the display over (`run --replace`).
    case takenOver = "taken-over"
    /// The connection to the X server was lost (the server exited or crashed).
    case serverLost = "server-lost"
    /// The output's reader is gone (a pipe into `head` closed).
    case outputClosed = "output-closed"
}
