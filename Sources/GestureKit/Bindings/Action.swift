/// Which way a scroll goes; X buttons 4-7.
public enum ScrollDirection: String, Sendable, Hashable, CaseIterable {
    case up
    case down
    case left
    case right

    /// The X core button that scrolls this way.
    public var button: Int {
        switch self {
        case .up: return 4
        case .down: return 5
        case .left: return 6
        case .right: return 7
        }
    }
}

/// A key combination as a person writes it: `ctrl+z`, `XF86AudioRaiseVolume`, `super+shift+Left`.
/// Each part is an X keysym name (modifier words are accepted as aliases: ctrl, shift, alt,
/// super); resolving names to keycodes is the X side's work.
public struct KeyCombo: Sendable, Hashable, CustomStringConvertible {
    public var keys: [String]

    public init(keys: [String]) {
        self.keys = keys
    }

    /// Splits `ctrl+z` into its keys; nil when a part is empty (`ctrl+`, `+`).
    public init?(parsing text: String) {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map {
            String($0).trimmingWhitespace()
        }
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        keys = parts
    }

    public var description: String { keys.joined(separator: "+") }

    /// The keysym name X knows for each key, modifiers spelled as people write them.
    public var keysymNames: [String] {
        keys.map { KeyCombo.modifierAliases[$0.lowercased()] ?? $0 }
    }

    /// A capital letter A-Z named beside a modifier other than Shift, Shift not named
    /// (`Ctrl+Z`, as menus write shortcuts): its keysym is the shifted one, so it would come
    /// with Shift. Nil for any other combination (`ctrl+z`, `ctrl+shift+Z`, a lone `Z`).
    public var capitalBesideModifiers: String? {
        let modifiers = keys.filter { KeyCombo.modifierAliases[$0.lowercased()] != nil }
        guard !modifiers.isEmpty, !modifiers.contains(where: { $0.lowercased() == "shift" }) else { return nil }
        return keys.first { $0.count == 1 && ("A"..."Z").contains($0) }
    }

    static let modifierAliases: [String: String] = [
        "ctrl": "Control_L", "control": "Control_L",
        "shift": "Shift_L",
        "alt": "Alt_L", "meta": "Meta_L",
        "super": "Super_L", "win": "Super_L", "mod4": "Super_L",
        "altgr": "ISO_Level3_Shift",
    ]
}

/// The key names the X side can type, for reading a config: a `{key: ...}` naming another is an
/// error where it is written, not a gesture that does nothing. (GestureKit knows no keysyms; a
/// config read without one, as the tests and `replay` without a display may, is not checked.)
public protocol KeyNames: Sendable {
    func knows(_ name: String) -> Bool
}

extension KeyNames {
    /// The keysym name meant by `name`, which X does not know, as people write keys: the
    /// character itself (`-`, `+`, `ü`), a short name (`pageup`, `esc`, `del`), or a keysym
    /// name in the wrong case (`kp_add`). Nil when nothing near is known.
    public func suggestion(for name: String) -> String? {
        var candidates: [String] = []
        if let spelled = Self.spelledOut[name.lowercased()] { candidates.append(spelled) }
        if name.count == 1, let scalar = name.unicodeScalars.first, !scalar.isASCII {
            // X names any character by its code point (U00FC for ü).
            let hex = String(scalar.value, radix: 16, uppercase: true)
            candidates.append("U" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
        }
        let parts = name.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        func capitalized(_ part: String) -> String { part.prefix(1).uppercased() + part.dropFirst().lowercased() }
        candidates.append(parts.map(capitalized).joined(separator: "_"))
        candidates.append(([parts[0].uppercased()] + parts.dropFirst().map(capitalized)).joined(separator: "_"))
        return candidates.first { $0 != name && knows($0) }
    }

    /// Keys as people write them, by the keysym name X knows them by.
    private static var spelledOut: [String: String] {
        ["-": "minus", "+": "plus", "=": "equal", ",": "comma", ".": "period", "/": "slash", "\\": "backslash",
         ";": "semicolon", "'": "apostrophe", "`": "grave", "[": "bracketleft", "]": "bracketright", " ": "space",
         "*": "asterisk", "#": "numbersign", "!": "exclam", "?": "question", "@": "at", "&": "ampersand",
         "pageup": "Page_Up", "pgup": "Page_Up", "pagedown": "Page_Down", "pgdn": "Page_Down", "esc": "Escape",
         "enter": "Return", "del": "Delete", "ins": "Insert", "backspace": "BackSpace", "printscreen": "Print",
         "prtsc": "Print", "capslock": "Caps_Lock", "numlock": "Num_Lock", "scrolllock": "Scroll_Lock",
         "arrowup": "Up", "arrowdown": "Down", "arrowleft": "Left", "arrowright": "Right"]
    }
}

/// A change to the default sound output's volume, as `{volume: ...}` spells it.
public enum VolumeChange: Sendable, Hashable, CustomStringConvertible {
    /// Up (positive) or down (negative) by this many percent: `+5%`, `-5%`.
    case adjust(percent: Int)
    /// To this level: `40%`.
    case set(percent: Int)
    case mute
    case unmute
    case toggleMute

    /// How far one change may go, in percent; the level itself never goes above 100%.
    public static let percentRange = 0...100

    /// Reads `+5%`, `-5%`, `40%`, `mute`, `unmute` or `mute-toggle`; nil for anything else.
    public init?(parsing text: String) {
        let word = text.trimmingWhitespace()
        switch word.lowercased() {
        case "mute": self = .mute
        case "unmute": self = .unmute
        case "mute-toggle": self = .toggleMute
        default:
            guard word.hasSuffix("%") else { return nil }
            var digits = Substring(word.dropLast())
            let sign = digits.first.flatMap { $0 == "+" || $0 == "-" ? $0 : nil }
            if sign != nil { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 3,
                  let value = Int(digits), Self.percentRange.contains(value) else { return nil }
            switch sign {
            case "+": guard value > 0 else { return nil }; self = .adjust(percent: value)
            case "-": guard value > 0 else { return nil }; self = .adjust(percent: -value)
            default: self = .set(percent: value)
            }
        }
    }

    /// The config spelling, which `init(parsing:)` reads back.
    public var description: String {
        switch self {
        case .adjust(let percent): return percent < 0 ? "\(percent)%" : "+\(percent)%"
        case .set(let percent): return "\(percent)%"
        case .mute: return "mute"
        case .unmute: return "unmute"
        case .toggleMute: return "mute-toggle"
        }
    }

    /// The words `{volume: ...}` accepts besides percentages, for suggestions.
    public static let words = ["mute", "unmute", "mute-toggle"]
}

/// What a binding does: real input the X side sends, or a command it runs.
public enum Action: Sendable, Hashable, CustomStringConvertible {
    /// The keys an action takes besides its verb.
    public enum Keys {
        /// How many notches a `scroll` turns.
        public static let steps = WholeNumberKey("steps", 1...100, standard: 1)
    }

    /// The buttons `click`, `press` and `release` can name: those of the X server's virtual
    /// (XTEST) pointer, which the bridge presses through. Every X server gives it ten; a press
    /// of any other is an X error.
    public static let buttons = 1...10

    case click(button: Int)
    case press(button: Int)
    case release(button: Int)
    case scroll(ScrollDirection, steps: Int)
    case key(KeyCombo)
    /// Run without a shell: argv[0] is looked up in PATH.
    case command([String])
    /// Changes the default sound output's volume directly (PipeWire or PulseAudio).
    case volume(VolumeChange)

    /// The name used in the replay output's `action` field.
    public var name: String {
        switch self {
        case .click: return "click"
        case .press: return "press"
        case .release: return "release"
        case .scroll: return "scroll"
        case .key: return "key"
        case .command: return "command"
        case .volume: return "volume"
        }
    }

    public var description: String {
        switch self {
        case .click(let button): return "click button \(button)"
        case .press(let button): return "press button \(button)"
        case .release(let button): return "release button \(button)"
        case .scroll(let direction, let steps): return "scroll \(direction.rawValue) \(steps)"
        case .key(let combo): return "key \(combo)"
        case .volume(let change):
            switch change {
            case .adjust: return "change the volume by \(change)"
            case .set: return "set the volume to \(change)"
            case .mute: return "mute the sound"
            case .unmute: return "unmute the sound"
            case .toggleMute: return "toggle mute"
            }
        case .command(let argv): return "command \(argv.map { $0.contains(" ") ? "\"\($0)\"" : $0 }.joined(separator: " "))"
        }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
