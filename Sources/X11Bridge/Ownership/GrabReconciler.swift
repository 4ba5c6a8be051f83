/// The one place that sets the bridge's passive grabs: after start-up, any hierarchy change, a
/// reload, a device's pressure found dead or alive, and at shutdown, the grabs are made to be
/// what `OwnedInputs` says, in the order the server needs.
///
/// A grab no longer wanted stays while it holds a contact that began under it, and goes once
/// that contact is over (`settle`): a press or touch already down finishes under the bindings
/// it began with, whatever a reload says meanwhile (docs/config.md). Only stopping lets go at
/// once (`releaseAll`).
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
/// button grab taken (`TouchOwnership.renewGrab`). A touch in flight keeps the grab it began
/// under, so the renewal waits until none is; a touch that begins in that wait (a finger
/// lifted and put down again before the bridge has read the lift) matches the button grab
/// first, and its stroke is held there as a pen's press (`PointerOwnership.takeOver`).
final class GrabReconciler {
    let pointer: PointerOwnership
    let touch: TouchOwnership
    /// What the bindings and the devices present asked for last.
    private var wanted = OwnedInputs.none

    init(pointer: PointerOwnership, touch: TouchOwnership) {
        self.pointer = pointer
        self.touch = touch
    }

    /// Makes the grabs what `wanted` says, keeping a grab that still holds a contact.
    func reconcile(_ wanted: OwnedInputs) {
        self.wanted = wanted
        apply(OwnedInputs(presses: wanted.presses || pointer.isGrabbing && pointer.isHolding,
                          touches: wanted.touches || touch.isGrabbing && touch.isHolding),
              reason: nil)
    }

    /// Drops a grab kept only for a contact in flight once nothing holds it: after input and
    /// timers. Cheap when there is none.
    func settle() {
        touch.sendHeldBack()
        let stale = pointer.isGrabbing && !wanted.presses || touch.isGrabbing && !wanted.touches
        if stale { reconcile(wanted) }
    }

    /// A grab the server refused (another client held it: a gesture daemon started first) is
    /// tried again as each contact ends, so it is the bridge's again soon after that client
    /// lets go, with no timer waking an idle bridge. Cheap when none was refused.
    func retryRefused() {
        if pointer.isGrabRefused || touch.isGrabRefused { reconcile(wanted) }
    }

    /// Lets go of everything at once, handing what is held to the applications: for stopping.
    func releaseAll(reason: String) {
        wanted = .none
        apply(.none, reason: reason)
    }

    private func apply(_ grabs: OwnedInputs, reason: String?) {
        let buttonGrabTaken = grabs.presses && !pointer.isGrabbing
        let touchGrabHeld = touch.isGrabbing
        pointer.setButtonGrab(grabs.presses, reason: reason ?? "no owning binding listens to a pen or mouse")
        touch.setTouchGrab(grabs.touches, reason: reason ?? "no owning binding listens to a touchscreen")
        // A touch grab taken just now is already the newer one.
        if buttonGrabTaken, touchGrabHeld, touch.isGrabbing { touch.renewGrab() }
    }
}
