/// Whether a device's declared pressure axis ever moves: the fallback when its driver does not
/// say what it is. A device whose contacts keep reading their minimum pressure (a puck or pad
/// an unknown driver declares pressure for) would have every press held back for a deep press
/// that cannot come; after `deadContacts` such contacts in a row it counts as having no
/// pressure, and the first sample above the minimum brings its pressure back. `GestureEngine`
/// follows it, so a trace's replay decides as the live bridge did.
public struct PressureLiveness: Sendable {
    /// Contacts in a row whose pressure never left the minimum before a device counts as dead.
    public static let deadContacts = 2

    public enum Change: Sendable, Hashable {
        /// The device's pressure axis never moved: treat it as without pressure.
        case dead(Int)
        /// It moved after all: its pressure counts again.
        case alive(Int)
    }

    private struct Watch: Sendable {
        /// The device's pressure range, looked up once; nil: nothing to watch.
        let range: PressureRange?
        var stillContacts = 0
        var dead = false
        /// Contacts down now, and whether each has pressed.
        var pressed: [Int: Bool] = [:]

        mutating func observe(_ event: ContactEvent) -> Change? {
            guard let range else { return nil }
            let moved = event.pressure.map { $0 > range.min } ?? false
            if moved, dead {
                dead = false
                stillContacts = 0
                if event.phase == .begin || event.phase == .move { pressed[event.contact] = true }
                return .alive(event.device)
            }
            switch event.phase {
            case .begin:
                pressed[event.contact] = moved
            case .move:
                // Written once per contact, not per sample.
                if moved, pressed[event.contact] != true { pressed[event.contact] = true }
            case .end:
                let didPress = (pressed.removeValue(forKey: event.contact) ?? false) || moved
                stillContacts = didPress ? 0 : stillContacts + 1
                if !dead, stillContacts >= PressureLiveness.deadContacts {
                    dead = true
                    return .dead(event.device)
                }
            case .cancel:
                pressed[event.contact] = nil
            case .hover:
                break
            }
            return nil
        }
    }

    private var watches: [Int: Watch] = [:]

    public init() {}

    /// Follows one contact event; `range` (the device's pressure range, nil for none) is asked
    /// only the first time a device is seen. Each sample updates its watch in place.
    public mutating func observe(_ event: ContactEvent, range: () -> PressureRange?) -> Change? {
        if watches[event.device] == nil { watches[event.device] = Watch(range: range()) }
        return watches[event.device, default: Watch(range: nil)].observe(event)
    }

    /// Whether the device's pressure counts as dead now.
    public func isDead(_ device: Int) -> Bool {
        watches[device]?.dead ?? false
    }

    /// Forgets a device that went away or changed: its range is looked up again.
    public mutating func remove(_ device: Int) {
        watches[device] = nil
    }
}
