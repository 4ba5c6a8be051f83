import GestureKit

/// Whether a device's declared pressure axis ever moves: the fallback when its driver does not
/// say what it is. A device whose contacts keep reading their minimum pressure (a puck or pad
/// an unknown driver declares pressure for) would have every press held back for a deep press
/// that cannot come; after `deadContacts` such contacts in a row it counts as having no
/// pressure, and the first sample above the minimum brings its pressure back.
struct PressureLiveness {
    /// Contacts in a row whose pressure never left the minimum before a device counts as dead.
    static let deadContacts = 2

    enum Change: Sendable, Hashable {
        /// The device's pressure axis never moved: treat it as without pressure.
        case dead(Int)
        /// It moved after all: its pressure counts again.
        case alive(Int)
    }

    private struct Watch {
        var stillContacts = 0
        var dead = false
        /// Contacts down now, and whether each has pressed.
        var pressed: [Int: Bool] = [:]
    }

    private var watches: [Int: Watch] = [:]

    /// Follows one contact event of a device with pressure range `range` (nil: nothing to watch).
    mutating func observe(_ event: ContactEvent, range: PressureRange?) -> Change? {
        guard let range else { return nil }
        var watch = watches[event.device] ?? Watch()
        defer { watches[event.device] = watch }
        let moved = event.pressure.map { $0 > range.min } ?? false
        if moved, watch.dead {
            watch.dead = false
            watch.stillContacts = 0
            if event.phase == .begin || event.phase == .move { watch.pressed[event.contact] = true }
            return .alive(event.device)
        }
        switch event.phase {
        case .begin:
            watch.pressed[event.contact] = moved
        case .move:
            if moved { watch.pressed[event.contact] = true }
        case .end:
            let pressed = (watch.pressed.removeValue(forKey: event.contact) ?? false) || moved
            watch.stillContacts = pressed ? 0 : watch.stillContacts + 1
            if !watch.dead, watch.stillContacts >= Self.deadContacts {
                watch.dead = true
                return .dead(event.device)
            }
        case .cancel:
            watch.pressed[event.contact] = nil
        case .hover:
            break
        }
        return nil
    }

    /// Forgets a device that went away.
    mutating func remove(_ device: Int) {
        watches[device] = nil
    }
}
