import CX11
import Testing
@testable import X11Bridge

/// The core keyboard's AccessX settings, set as a desktop's accessibility settings set them.
enum AccessXSettings {
    /// Turns Slow Keys and Bounce Keys on with these delays in milliseconds, or off (0), on the
    /// server `display` talks to, and checks the server has them so (a live test's stimulus).
    static func set(on display: OpaquePointer, slowKeys: UInt16 = 0, debounce: UInt16 = 0,
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
        let xkb = try #require(XkbGetMap(display, 0, UInt32(XkbUseCoreKbd)), sourceLocation: sourceLocation)
        defer { XkbFreeKeyboard(xkb, 0, 1) }
        #expect(XkbGetControls(display, UInt(XkbAllControlsMask), xkb) == Success, sourceLocation: sourceLocation)
        let controls = try #require(xkb.pointee.ctrls, sourceLocation: sourceLocation)
        // A delay of 0 is a BadValue: an unused one keeps its value.
        if slowKeys > 0 { controls.pointee.slow_keys_delay = slowKeys }
        if debounce > 0 { controls.pointee.debounce_delay = debounce }
        var enabled = controls.pointee.enabled_ctrls & ~UInt32(XkbSlowKeysMask | XkbBounceKeysMask)
        if slowKeys > 0 { enabled |= UInt32(XkbSlowKeysMask) }
        if debounce > 0 { enabled |= UInt32(XkbBounceKeysMask) }
        controls.pointee.enabled_ctrls = enabled
        XkbSetControls(display, UInt(XkbSlowKeysMask | XkbBounceKeysMask | XkbControlsEnabledMask), xkb)
        XSync(display, 0)
        let wanted = KeyStrokes.Timing(slowKeys: slowKeys > 0 ? Double(slowKeys) / 1000 : nil,
                                       debounce: debounce > 0 ? Double(debounce) / 1000 : nil)
        #expect(KeyStrokes.Timing.read(display) == wanted, "the server has them so", sourceLocation: sourceLocation)
    }

    /// Turns Sticky Keys on or off; with `twoKeysOff`, as GNOME sets it, two keys pressed
    /// together turn it off; with `latchToLock`, a latched modifier pressed again locks.
    /// Checks the server has it so.
    static func setStickyKeys(on display: OpaquePointer, _ enabled: Bool, twoKeysOff: Bool = false, latchToLock: Bool = false,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let xkb = try #require(XkbGetMap(display, 0, UInt32(XkbUseCoreKbd)), sourceLocation: sourceLocation)
        defer { XkbFreeKeyboard(xkb, 0, 1) }
        #expect(XkbGetControls(display, UInt(XkbAllControlsMask), xkb) == Success, sourceLocation: sourceLocation)
        let controls = try #require(xkb.pointee.ctrls, sourceLocation: sourceLocation)
        let mask = UInt32(XkbStickyKeysMask | XkbAccessXKeysMask)
        controls.pointee.enabled_ctrls = enabled ? controls.pointee.enabled_ctrls | mask : controls.pointee.enabled_ctrls & ~mask
        let twoKeys = UInt16(XkbAX_TwoKeysMask)
        controls.pointee.ax_options = twoKeysOff ? controls.pointee.ax_options | twoKeys : controls.pointee.ax_options & ~twoKeys
        let toLock = UInt16(XkbAX_LatchToLockMask)
        controls.pointee.ax_options = latchToLock ? controls.pointee.ax_options | toLock : controls.pointee.ax_options & ~toLock
        XkbSetControls(display, UInt(XkbStickyKeysMask | XkbAccessXKeysMask | XkbControlsEnabledMask), xkb)
        XSync(display, 0)
        #expect(try stickyKeys(on: display, sourceLocation: sourceLocation) == enabled, "the server has it so", sourceLocation: sourceLocation)
    }

    /// The core keyboard's latched and locked modifiers now; none when XKB cannot say.
    static func modifiers(on display: OpaquePointer) -> (latched: UInt32, locked: UInt32) {
        var state = XkbStateRec()
        guard XkbGetState(display, UInt32(XkbUseCoreKbd), &state) == Success else { return (0, 0) }
        return (UInt32(state.latched_mods), UInt32(state.locked_mods))
    }

    /// Whether Sticky Keys is on.
    static func stickyKeys(on display: OpaquePointer, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        let xkb = try #require(XkbGetMap(display, 0, UInt32(XkbUseCoreKbd)), sourceLocation: sourceLocation)
        defer { XkbFreeKeyboard(xkb, 0, 1) }
        #expect(XkbGetControls(display, UInt(XkbAllControlsMask), xkb) == Success, sourceLocation: sourceLocation)
        let controls = try #require(xkb.pointee.ctrls, sourceLocation: sourceLocation)
        return controls.pointee.enabled_ctrls & UInt32(XkbStickyKeysMask) != 0
    }
}
