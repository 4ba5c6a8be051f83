import GestureKit

/// What the runtime needs from the on-screen feedback (pulse, progress ring): it gets the
/// engine's `.feedback` outputs, and its animation deadline joins the event loop's timeout,
/// so an idle overlay costs no wakeups.
public protocol FeedbackPresenter: AnyObject {
    func show(_ feedback: Feedback, now: Double)
    /// When the next animation frame is due, on the engine's clock; nil when nothing moves.
    var nextDeadline: Double? { get }
    func tick(now: Double)
    /// The touch view: every active contact with its normalized force; contacts left out go.
    func showContacts(_ contacts: [ActiveContact], now: Double)
    /// The config's colour, size and pulse length; set at start and on every reload.
    var look: FeedbackLook { get set }
    /// The root window was resized or its monitors changed: feedback from now on is cut to
    /// the monitor under it in the new layout.
    func screenChanged(_ screen: ScreenSize, monitors: MonitorLayout)
    /// The desktop's X resources changed: its scale (`Xft.dpi`) may have.
    func resourcesChanged()
    func close()
    /// Takes the X errors that answer the feedback's own requests (another client destroyed
    /// its window, say), and returns the rest: the feedback starts its windows afresh, and
    /// nothing of the input is concerned.
    func absorb(_ errors: [XProtocolError]) -> [XProtocolError]
}
