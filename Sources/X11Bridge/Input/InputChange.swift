import GestureKit

/// What one X event meant for the bridge's input.
public enum InputChange: Sendable, Hashable {
    case contact(ContactEvent)
    /// Contact sources were added, changed or removed (removed ones' contacts already cancelled).
    case devices(DeviceChanges)
    case screenResized(ScreenSize)
    /// The screen's monitors changed (RandR 1.5): added, removed, moved or resized.
    case monitorsChanged(MonitorLayout)
    /// Input the bridge's button grab holds back from the applications; `emulating`, for a
    /// press the server made from a touch, that touch's id when the bridge saw it begin.
    case grabbedPointer(GrabbedPointerEvent, emulating: Int?)
    /// A touch the bridge's touch grab lets it own before the applications.
    case grabbedTouch(GrabbedTouchEvent)
    /// Another bridge took the display over (`InstanceClaim`): this one must stop.
    case takenOver
    /// The desktop's X resources changed (its scale, `Xft.dpi`, among them).
    case resourcesChanged
    /// A button other than the tip (a pen's side button, a mouse's right one; not the wheel)
    /// went down on a pen or mouse whose tip is down, at `time`.
    case anotherButton(device: Int, time: Double)
}
