/// A hand resting on a touchscreen where a pen writes (a palm) makes no gesture: a long press
/// or a deep press under it would open a menu beneath the hand between two strokes. A touch
/// that goes down while a pen hovers over the part of the screen its touchscreen reaches, or is
/// still held when one comes to hover there, is held back with no gesture
/// (`ContactHold.resting`), and so are the fingers that join it (a palm touches as two or
/// three). It goes to the applications at the decision timeout, at its end, or once it moves
/// past its gestures' slop (a finger's scroll), as without the bridge. Not at once: a palm handed over
/// puts the master's emulated button down, and a pen's press then goes along with it over a
/// window that takes no touch (`ReleaseReason.anotherButton`), its deep press lost.
///
/// A pen that is down has rules of its own (`GestureEngine.begin`): a touch made while the
/// application has its stroke is the application's at once; one made while the bridge holds its
/// press back keeps its gestures (two hands, two devices). A pen lifted and gone from the
/// screen leaves the touch its gestures: a finger's deep press right after the pen is laid
/// down is meant.
///
/// X reports no proximity (XI2 has no proximity events): a pen hovers while its samples with
/// the tip up keep coming. A hand above a tablet is never quite still, and drivers send them
/// every few milliseconds (libinput takes 50 ms without one for a pen gone out of range);
/// `hoverGap` leaves room for a driver that drops samples that change nothing. libinput's
/// tablet-touch arbitration does the like for a tablet's own touch, turning it off while the
/// pen is in range.
public enum PalmRule {
    /// Seconds after a pen's last hovering sample during which it still hovers.
    public static let hoverGap = 0.25
    /// How far (pixels at scale 1) a palm may move before it is taken for a finger's scroll or
    /// drag, when none of its gestures says (the built-in deep press's slop).
    public static let slop = 12.0
}
