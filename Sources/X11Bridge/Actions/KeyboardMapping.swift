import CX11
import GestureKit

/// Finds keycodes for keysym names, borrowing a spare keycode for a keysym the keymap lacks.
///
/// A borrowed keycode keeps its keysym for a while after the key was sent: an application
/// looks the keysym up in its copy of the keymap when it handles the event, and gets the new
/// mapping only through MappingNotify. Putting the mapping back at once can make the
/// application read the key as nothing, so it goes back `borrowHold` seconds after its last
/// use, when the bridge stops, or when the keycode is needed for another keysym.
public final class KeyboardMapping {
    /// The keycodes to hold down, in order, for one combination.
    public struct Chord: Sendable, Hashable {
        public var keycodes: [UInt8]
    }

    private struct Borrowed {
        var keycode: UInt8
        var lastUsed: Double
    }

    private let connection: XConnection
    private var borrowed: [KeySym: Borrowed] = [:]

    static let borrowHold = 1.0

    public init(connection: XConnection) {
        self.connection = connection
    }

    /// The keycodes for `combo`, Shift added for a keysym that sits on a key's shifted level.
    public func chord(for combo: KeyCombo, now: Double) throws(ActionFailure) -> Chord {
        var keycodes: [UInt8] = []
        let names = combo.keysymNames
        let shiftNamed = names.contains { $0 == "Shift_L" || $0 == "Shift_R" }
        for name in names {
            let keysym = try Self.keysym(named: name, in: combo)
            let (keycode, shifted) = try keycode(for: keysym, name: name, now: now)
            if shifted && !shiftNamed, let shift = try? self.keycode(for: KeySym(XK_Shift_L), name: "Shift_L", now: now).0,
               !keycodes.contains(shift) {
                keycodes.append(shift)
            }
            if !keycodes.contains(keycode) { keycodes.append(keycode) }
        }
        return Chord(keycodes: keycodes)
    }

    /// The keysym for a name as X spells it, also accepting a lower-case first letter
    /// (`left`, `escape`) since names are case-sensitive and people write them either way.
    static func keysym(named name: String, in combo: KeyCombo) throws(ActionFailure) -> KeySym {
        if let keysym = keysym(named: name) { return keysym }
        throw ActionFailure("unknown key \"\(name)\" in \"\(combo)\"; use X keysym names such as ctrl+z, Return, XF86AudioRaiseVolume (`xev` shows them)")
    }

    /// The keysym for a name, as above; nil when X knows none by it. Xlib's table: no display needed.
    static func keysym(named name: String) -> KeySym? {
        let exact = XStringToKeysym(name)
        if exact != 0 { return exact }
        if let first = name.first, first.isLowercase {
            let capitalized = XStringToKeysym(first.uppercased() + name.dropFirst())
            if capitalized != 0 { return capitalized }
        }
        return nil
    }

    private func keycode(for keysym: KeySym, name: String, now: Double) throws(ActionFailure) -> (UInt8, shifted: Bool) {
        if var entry = borrowed[keysym] {
            entry.lastUsed = now
            borrowed[keysym] = entry
            return (entry.keycode, false)
        }
        if let typing = typingKeycode(for: keysym) { return typing }
        return (try borrow(keysym, name: name, now: now), false)
    }

    /// The key that types `keysym` in the keyboard group (layout) in use now, and whether it
    /// needs Shift: the first with it on its plain level, else the first with it on its shifted
    /// one. Nil when no key has it on either there: it sits on an AltGr level, or only in
    /// another layout (`z` while a German layout follows a US one is another key), and a
    /// borrowed key types it. (Xlib's own lookup takes any group and level: `at` on a German
    /// layout gave the bare q key, and `ctrl+z` on the second layout of two gave ctrl+y.)
    private func typingKeycode(for keysym: KeySym) -> (UInt8, shifted: Bool)? {
        let display = connection.display
        var state = XkbStateRec()
        let group = XkbGetState(display, UInt32(XkbUseCoreKbd), &state) == Success ? Int32(state.group) : 0
        var minimum: Int32 = 0
        var maximum: Int32 = 0
        XDisplayKeycodes(display, &minimum, &maximum)
        guard minimum > 0, maximum >= minimum, maximum <= 255 else { return nil }
        for level: Int32 in [0, 1] {
            for code in minimum...maximum {
                let keycode = KeyCode(code)
                // A key with fewer groups than the one in use (a modifier, a media key) types
                // its first group's symbols there.
                let keyGroup = XkbKeycodeToKeysym(display, keycode, group, 0) == NoSymbol ? 0 : group
                if XkbKeycodeToKeysym(display, keycode, keyGroup, level) == keysym { return (keycode, level == 1) }
            }
        }
        return nil
    }

    private func borrow(_ keysym: KeySym, name: String, now: Double) throws(ActionFailure) -> UInt8 {
        guard let keycode = spareKeycode() else {
            throw ActionFailure("\"\(name)\" is not on the keyboard map and no spare keycode is left to put it on")
        }
        var symbols: [KeySym] = [keysym, keysym]
        XChangeKeyboardMapping(connection.display, Int32(keycode), 2, &symbols, 1)
        borrowed[keysym] = Borrowed(keycode: keycode, lastUsed: now)
        return keycode
    }

    /// The highest keycode with no keysym at all: the low ones are real keys' places.
    private func spareKeycode() -> UInt8? {
        var minimum: Int32 = 0
        var maximum: Int32 = 0
        XDisplayKeycodes(connection.display, &minimum, &maximum)
        guard maximum >= minimum, minimum > 0 else { return nil }
        var perKeycode: Int32 = 0
        let count = maximum - minimum + 1
        guard let symbols = XGetKeyboardMapping(connection.display, UInt8(clamping: minimum), count, &perKeycode) else { return nil }
        defer { XFree(symbols) }
        let inUse = Set(borrowed.values.map(\.keycode))
        var keycode = maximum
        while keycode >= minimum {
            let row = Int(keycode - minimum) * Int(perKeycode)
            let empty = (0..<Int(perKeycode)).allSatisfy { symbols[row + $0] == 0 }
            if empty, let code = UInt8(exactly: keycode), !inUse.contains(code) { return code }
            keycode -= 1
        }
        return nil
    }

    public var nextDeadline: Double? {
        // Asked twice on every wakeup: no array, no closure (a lazy map's allocated one).
        var earliest: Double?
        for entry in borrowed.values {
            earliest = min(earliest ?? .infinity, entry.lastUsed + Self.borrowHold)
        }
        return earliest
    }

    /// Puts back the borrowed keycodes not used for `borrowHold` seconds.
    public func restore(dueBy now: Double) {
        for (keysym, entry) in borrowed where entry.lastUsed + Self.borrowHold <= now {
            unmap(entry.keycode)
            borrowed[keysym] = nil
        }
    }

    public func restoreAll() {
        for entry in borrowed.values { unmap(entry.keycode) }
        borrowed.removeAll()
    }

    private func unmap(_ keycode: UInt8) {
        var symbols: [KeySym] = [0, 0]
        XChangeKeyboardMapping(connection.display, Int32(keycode), 2, &symbols, 1)
    }
}

/// The key names X knows, as `KeyboardMapping` reads them (a lower-case first letter too): what
/// a config's `{key: ...}` may name, checked as the config is read (`check`, `run`, a reload).
public struct XKeysymNames: KeyNames {
    public init() {}

    public func knows(_ name: String) -> Bool {
        KeyboardMapping.keysym(named: name) != nil
    }
}
