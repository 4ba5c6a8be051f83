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

    static let modifierAliases: [String: String] = [
        "ctrl": "Control_L", "control": "Control_L",
        "shift": "Shift_L",
        "alt": "Alt_L", "meta": "Meta_L",
        "super": "Super_L", "win": "Super_L", "mod4": "Super_L",
        "altgr": "ISO_Level3_Shift",
    ]
}

/// What a binding does: real input the X side sends, or a command it runs.
public enum Action: Sendable, Hashable, CustomStringConvertible {
    case click(button: Int)
    case press(button: Int)
    case release(button: Int)
    case scroll(ScrollDirection, steps: Int)
    case key(KeyCombo)
    /// Run without a shell: argv[0] is looked up in PATH.
    case command([String])

    /// The name used in the replay output's `action` field.
    public var name: String {
        switch self {
        case .click: return "click"
        case .press: return "press"
        case .release: return "release"
        case .scroll: return "scroll"
        case .key: return "key"
        case .command: return "command"
        }
    }

    public var description: String {
        switch self {
        case .click(let button): return "click button \(button)"
        case .press(let button): return "press button \(button)"
        case .release(let button): return "release button \(button)"
        case .scroll(let direction, let steps): return "scroll \(direction.rawValue) \(steps)"
        case .key(let combo): return "key \(combo)"
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
