import GestureKit

/// Everything the running bridge tells its owner, in order: the command prints gestures and
/// actions and logs the rest.
public enum BridgeEvent: Sendable {
    /// Listening has begun; `devices` are the contact sources (pens, touchscreens, mice).
    case started(devices: [X11Device], screen: ScreenSize)
    case engine(EngineOutput)
    /// Devices came, changed or went; the contacts of removed ones were cancelled.
    case devicesChanged(DeviceChanges)
    case screenResized(ScreenSize)
    /// SIGHUP read the config file again and the new bindings apply to new contacts.
    case configurationReloaded(source: String, bindings: BindingSet)
    /// SIGHUP found the config file broken; the old bindings stay. `message` has file:line:column.
    case configurationRejected(source: String, message: String)
    /// SIGHUP arrived but there is no file to read again.
    case reloadUnavailable
    case actionFailed(ActionEvent, ActionFailure)
    /// The performer let go of buttons or keys it held, and why.
    case releasedHeldInput(reason: String)
    case xError(XProtocolError)
    /// What became of held-back pen and mouse input: kept for a gesture or replayed, why, and
    /// how long it was held.
    case inputOwnership(String)
    /// A stop was requested: by `signal` (SIGINT, SIGTERM), or by the owner when nil.
    case stopping(signal: Int32?)
}
