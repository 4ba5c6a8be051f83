/// Which X input driver made a device, as far as its properties tell: each follows its own
/// conventions for types, axes and what it posts.
public enum InputDriver: String, Sendable, Hashable, CaseIterable {
    /// xf86-input-libinput, the default on most distributions: a tablet tool's device appears
    /// when the tool first comes into proximity, an eraser is a device of its own, pressure is
    /// always posted on valuator 2 (0...2047) while labels are handed out in order, and a
    /// touchscreen reports no pressure.
    case libinput
    /// xf86-input-wacom: "... Pen stylus", "... Pen eraser", "... Pen cursor", "... Pad pad".
    case wacom
    /// xf86-input-evdev: labels from the kernel's axes; a touch update carries only the
    /// valuators that changed.
    case evdev
    /// Anything else, or a device whose driver sets none of the properties looked for.
    case unknown

    /// A property only this driver sets on its devices.
    var marker: String? {
        switch self {
        case .libinput: return "libinput Send Events Modes Available"
        case .wacom: return "Wacom Tool Type"
        case .evdev: return "Evdev Axis Inversion"
        case .unknown: return nil
        }
    }
}

/// The XI 1 device type a driver reports (XListInputDevices' type atom): the one place a driver
/// says what a device is, beside its name. Wacom and libinput agree on the tablet tools' names.
public enum DeviceType: Sendable, Hashable {
    case stylus, eraser, cursor, pad, touchscreen, touchpad, mouse, tablet, keyboard
    case other(String)

    public init(atomName: String) {
        switch atomName.uppercased() {
        case "STYLUS": self = .stylus
        case "ERASER": self = .eraser
        case "CURSOR": self = .cursor
        case "PAD": self = .pad
        case "TOUCHSCREEN", "TOUCH": self = .touchscreen
        case "TOUCHPAD": self = .touchpad
        case "MOUSE": self = .mouse
        case "TABLET": self = .tablet
        case "KEYBOARD": self = .keyboard
        default: self = .other(atomName)
        }
    }

    /// A tool or control that declares a pressure axis it never moves: a puck or lens (whose
    /// "pressure" is there for compatibility), a pad (its buttons, rings and strips).
    var declaresDeadPressure: Bool {
        switch self {
        case .cursor, .pad: return true
        case .stylus, .eraser, .touchscreen, .touchpad, .mouse, .tablet, .keyboard, .other: return false
        }
    }

    public var name: String {
        switch self {
        case .stylus: return "STYLUS"
        case .eraser: return "ERASER"
        case .cursor: return "CURSOR"
        case .pad: return "PAD"
        case .touchscreen: return "TOUCHSCREEN"
        case .touchpad: return "TOUCHPAD"
        case .mouse: return "MOUSE"
        case .tablet: return "TABLET"
        case .keyboard: return "KEYBOARD"
        case .other(let name): return name
        }
    }
}
