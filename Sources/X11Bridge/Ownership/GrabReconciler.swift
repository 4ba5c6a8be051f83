/// The one place that sets the bridge's passive grabs: after start-up, any hierarchy change, a
/// reload, a device's pressure found dead or alive, and at shutdown, the grabs are made to be
/// what `OwnedInputs` says, in the order the server needs.
///
/// The order matters. A touch that emulates the pointer (the first touch of a direct-touch
/// screen) matches a passive button-1 grab on the root as well as the touch grab, and the X
/// server (dix `CheckPassiveGrabsOnWindow`) takes the first match in a window's list of passive
/// grabs, where each new grab goes to the front. A button grab taken after the touch grab
/// therefore wins every such touch: the bridge receives an emulated button press it cannot
/// own as a touch, the touch's accept fails with BadAccess, and the application gets a left
/// press that is never released. A pen re-plugged (its device disabled and enabled, a resume,
/// a KVM switch) or a pen that appears at its first proximity (xf86-input-libinput) drops and
/// retakes the button grab after the touch grab, so the touch grab is renewed after every
/// button grab taken (`TouchOwnership.renewGrab`).
final class GrabReconciler {
    let pointer: PointerOwnership
    let touch: TouchOwnership

    init(pointer: PointerOwnership, touch: TouchOwnership) {
        self.pointer = pointer
        self.touch = touch
    }

    /// Makes the grabs what `wanted` says: a grab no longer wanted hands back what it holds
    /// (for `reason`) and goes; a wanted one is taken; a button grab taken now puts the touch
    /// grab behind it, so the touch grab is renewed.
    func reconcile(_ wanted: OwnedInputs, reason: String? = nil) {
        let buttonGrabTaken = wanted.presses && !pointer.isGrabbing
        let touchGrabHeld = touch.isGrabbing
        pointer.setButtonGrab(wanted.presses, reason: reason ?? "no owning binding listens to a pen or mouse")
        touch.setTouchGrab(wanted.touches, reason: reason ?? "no owning binding listens to a touchscreen")
        // A touch grab taken just now is already the newer one.
        if buttonGrabTaken, touchGrabHeld, touch.isGrabbing { touch.renewGrab() }
    }
}
