import GestureKit

/// Carries out the actions bindings fire: real input through XTest, or a log line.
///
/// Performers live on the event loop's thread. Whatever a performer presses, it must be
/// able to release on request: the bridge calls `releaseAll()` on exit, when a device goes
/// away and after errors, so that no button or key stays held.
public protocol ActionPerformer: AnyObject {
    func perform(_ event: ActionEvent, now: Double) throws(ActionFailure)

    /// Releases every button and key this performer holds down.
    func releaseAll()

    /// Called once as the bridge starts, told X's XTEST pointer (its id and how many buttons
    /// it has; nil when there is none): lets go of what an earlier bridge, killed outright
    /// (SIGKILL, a crash), left held through the same means.
    func releaseLeftovers(xtestPointer: (id: Int, buttonCount: Int)?)

    /// Whether anything is held down now.
    var isHolding: Bool { get }

    /// Lets go of each pointer button held down (a `press:`) that `isStranded` picks, told the
    /// button and the contacts whose gestures hold it, and forgets it; returns those let go of,
    /// last pressed first. For a button nothing could let go of any more (a reload took away
    /// every binding that releases it).
    func releaseButtons(where isStranded: (_ button: Int, _ holders: Set<ContactKey>) -> Bool) -> [Int]

    /// A contact moved: when it holds a button this performer pressed (`press:`, a long press
    /// held to drag), the pointer goes with it, so the button drags. A finger's touch a gesture
    /// has moves no pointer by itself.
    func follow(_ contact: ContactKey, to point: Point)

    /// Whether a pointer button is held down now (a `press:` action): X then gives a pen's tip
    /// press to the application, not to the bridge's grab, which only a first button activates.
    var holdsButton: Bool { get }

    /// When deferred work is due (putting back a borrowed keycode), on the engine's clock.
    var nextDeadline: Double? { get }

    /// Does the deferred work due by `now`.
    func tick(now: Double)

    /// Descriptors the event loop waits on for the performer (launched commands exiting).
    var descriptors: [Int32] { get }

    func descriptorReady(_ descriptor: Int32)

    /// Called once when the bridge stops: release, put back, and let go of resources.
    func shutdown()

    /// What the volume changes asked for have come to since the last call: levels read back
    /// (for the knob's ring) and failures (to log). Performers that change no volume have none.
    func takeVolumeReports() -> [VolumeReport]
}

extension ActionPerformer {
    public func takeVolumeReports() -> [VolumeReport] { [] }
    public func releaseLeftovers(xtestPointer: (id: Int, buttonCount: Int)?) {}
    public var holdsButton: Bool { false }
    public func releaseButtons(where isStranded: (_ button: Int, _ holders: Set<ContactKey>) -> Bool) -> [Int] { [] }
    public func follow(_ contact: ContactKey, to point: Point) {}
}
