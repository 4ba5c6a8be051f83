import CX11

/// How a master frozen by a synchronous grab goes on (`XIAllowEvents`).
enum FrozenEventMode: Sendable, Hashable {
    /// The frozen event goes to the application as if the grab had not taken it (XIReplayDevice).
    case replay
    /// The master thaws and its events keep coming to the grab (XIAsyncDevice).
    case thaw

    fileprivate var xiMode: Int32 {
        switch self {
        case .replay: XIReplayDevice
        case .thaw: XIAsyncDevice
        }
    }
}

/// What the owner of a touch does with it (`XIAllowTouchEvents`).
enum TouchOwnershipChoice: Sendable, Hashable {
    /// The touch stays with the owner; no other listener sees it (XIAcceptTouch).
    case accept
    /// The server replays the touch to the next listener (XIRejectTouch).
    case reject

    fileprivate var xiMode: Int32 {
        switch self {
        case .accept: XIAcceptTouch
        case .reject: XIRejectTouch
        }
    }
}

/// The server's answer to an active grab (`XIGrabDevice`): GrabSuccess or the reason it refused.
struct GrabStatus: Sendable, Hashable {
    let rawValue: Int32

    var succeeded: Bool { rawValue == GrabSuccess }
}

/// The grabs through which the bridge holds input back, and the requests that let it go. None
/// flushes: the caller decides when its requests leave.
extension XConnection {
    /// A synchronous passive grab of button 1 on the root, for every master, with any modifiers
    /// down but Alt's and Super's (`XIGrabModifiers.heldButton`): a press freezes its master
    /// until `allowEvents`. Returns how many modifier combinations the server refused (another
    /// client holds the grab): 0 when it took; when some were refused, none is kept.
    func grabButton1(selecting events: Set<Int32>) -> Int32 {
        var modifiers = XIGrabModifiers.heldButton
        let refused = XI2EventMask(device: XIAllMasterDevices, events: events).withCMask { mask in
            XIGrabButton(display, XIAllMasterDevices, 1, root, 0, XIGrabModeSync, XIGrabModeAsync, 0, &mask,
                         Int32(modifiers.count), &modifiers)
        }
        // Held for some combinations only, a press with those would freeze its master with
        // the bridge believing it holds nothing.
        if refused > 0 { ungrabButton1() }
        return refused
    }

    /// Ends the grab of `grabButton1`.
    func ungrabButton1() {
        var modifiers = XIGrabModifiers.heldButton
        XIUngrabButton(display, XIAllMasterDevices, 1, root, Int32(modifiers.count), &modifiers)
    }

    /// A passive touch grab on the root, for every master, whatever modifiers are down: the
    /// bridge becomes every touch's first owner. Returns how many modifier combinations the
    /// server refused (another client holds the grab): 0 when it took.
    func grabTouchBegin(selecting events: Set<Int32>) -> Int32 {
        var modifiers = XIGrabModifiers.anyModifiers
        return XI2EventMask(device: XIAllMasterDevices, events: events).withCMask { mask in
            XIGrabTouchBegin(display, XIAllMasterDevices, root, 0, &mask, 1, &modifiers)
        }
    }

    /// Ends the grab of `grabTouchBegin`.
    func ungrabTouchBegin() {
        var modifiers = XIGrabModifiers.anyModifiers
        XIUngrabTouchBegin(display, XIAllMasterDevices, root, 1, &modifiers)
    }

    /// An asynchronous active grab of one device on the root, selecting `events`. A slave
    /// grabbed on its own leaves its master while the grab lasts.
    func grabDevice(_ device: Int, selecting events: Set<Int32>) -> GrabStatus {
        let status = XI2EventMask(device: Int32(device), events: events).withCMask { mask in
            XIGrabDevice(display, Int32(device), root, UInt(CurrentTime), 0, XIGrabModeAsync, XIGrabModeAsync, 0, &mask)
        }
        return GrabStatus(rawValue: status)
    }

    /// Ends a device's active grab (the bridge's own, or the one a passive grab activated). With
    /// `time` (server milliseconds), a grab activated after it is left alone.
    func ungrabDevice(_ device: Int, time: UInt = UInt(CurrentTime)) {
        XIUngrabDevice(display, Int32(device), time)
    }

    /// Lets a master frozen by the button grab go on, as `mode` says.
    func allowEvents(master: Int, _ mode: FrozenEventMode) {
        XIAllowEvents(display, Int32(master), mode.xiMode, UInt(CurrentTime))
    }

    /// As `allowEvents(master:_:)`, for the grab a press of server time `time` activated only:
    /// the server ignores the request when the master's grab was activated later (by a press
    /// after that one).
    func allowEvents(master: Int, _ mode: FrozenEventMode, activatedBy time: UInt) {
        XIAllowEvents(display, Int32(master), mode.xiMode, time)
    }

    /// Accepts or rejects a touch the bridge owns through its touch grab on the root.
    func allowTouchEvents(master: Int, touch: Int, _ choice: TouchOwnershipChoice) {
        XIAllowTouchEvents(display, Int32(master), UInt32(truncatingIfNeeded: touch), root, choice.xiMode)
    }

    /// A synthetic release of the logical `button` through XTest, on the core pointer: of the
    /// XTEST pointer's button that its maps make `button` (`outputButtons`).
    func fakeButtonRelease(_ button: Int) {
        let physical = outputButtons.physical(of: button) ?? button
        XTestFakeButtonEvent(display, UInt32(physical), 0, UInt(CurrentTime))
    }
}

/// XKB's latched modifiers and group on the core keyboard: Sticky Keys' one-shot modifiers,
/// which the next key or button event takes and lets go of.
struct KeyboardLatches: Sendable, Hashable {
    var modifiers: UInt32
    var group: Int32

    var isEmpty: Bool { modifiers == 0 && group == 0 }
}

extension XConnection {
    /// Latches `latches` again: what a synthetic event of the bridge's own took, the person's
    /// next click gets.
    func latch(_ latches: KeyboardLatches) {
        if latches.modifiers != 0 { XkbLatchModifiers(display, UInt32(XkbUseCoreKbd), latches.modifiers, latches.modifiers) }
        if latches.group != 0 { XkbLatchGroup(display, UInt32(XkbUseCoreKbd), UInt32(bitPattern: latches.group)) }
    }

    /// The core keyboard's modifiers latched or locked now (one round trip); none when XKB
    /// cannot say.
    func latchedAndLockedModifiers() -> UInt32 {
        var state = XkbStateRec()
        guard XkbGetState(display, UInt32(XkbUseCoreKbd), &state) == Success else { return 0 }
        return UInt32(state.latched_mods) | UInt32(state.locked_mods)
    }
}

extension XIGrabModifiers {
    /// A passive grab's modifier list that matches whatever modifiers are down:
    /// XIAnyModifier (1 << 31), which Swift does not import as a constant.
    fileprivate static var anyModifiers: [XIGrabModifiers] {
        [XIGrabModifiers(modifiers: Int32(bitPattern: 0x8000_0000), status: 0)]
    }

    /// The modifier combinations the button grab holds: each of Shift, Lock, Control, Mod2
    /// (NumLock), Mod3 and Mod5 down or not, never Mod1 (Alt) or Mod4 (Super). Those are window
    /// managers' for moving and resizing windows with a click, and a press the bridge holds back
    /// is handed on below the root only, where a window manager's grab on the root (xmonad's)
    /// never sees it. Found in review of window managers: a bridge started after xmonad took
    /// every Alt+drag from it, and the application got an Alt+click.
    fileprivate static var heldButton: [XIGrabModifiers] {
        let free = [ShiftMask, LockMask, ControlMask, Mod2Mask, Mod3Mask, Mod5Mask].map { Int32($0) }
        return (0..<(1 << free.count)).map { combination in
            let mask = free.enumerated().reduce(Int32(0)) { combination & (1 << $1.offset) != 0 ? $0 | $1.element : $0 }
            return XIGrabModifiers(modifiers: mask, status: 0)
        }
    }
}
