/// Whether a device's declared pressure axis ever changes: the fallback when its driver does
/// not say what it is. A device whose contacts keep reading their minimum pressure (a puck or
/// pad an unknown driver declares pressure for) would have every press held back for a deep
/// press that cannot come; after `deadContacts` such contacts in a row it counts as having no
/// pressure. So does one whose every sample reads one other value, over `stuckContacts`
/// contacts of at least `stuckSamples` samples each (found in review of odd devices: a
/// touchscreen whose pressure always read its maximum right-clicked every tap, and one stuck
/// halfway never right-clicked, its long press kept from it by a pressure that never moves).
/// The first sample of another value brings its pressure back. `GestureEngine` follows it, so
/// a trace's replay decides as the live bridge did.
public struct PressureLiveness: Sendable {
    /// Contacts in a row whose pressure never left the minimum before a device counts as dead.
    public static let deadContacts = 2
    /// Contacts in a row whose every sample read one value above the minimum before a device
    /// counts as dead: more, and longer ones, than at the minimum, since a real pressure can
    /// read one value over a quick tap.
    public static let stuckContacts = 3
    /// Samples, begin and end included, a contact needs to count toward `stuckContacts`.
    public static let stuckSamples = 3

    public enum Change: Sendable, Hashable {
        /// The device's pressure axis never moved: treat it as without pressure.
        case dead(Int)
        /// It moved after all: its pressure counts again.
        case alive(Int)
    }

    /// What one contact's pressure read so far.
    private enum Reading: Sendable {
        /// Every sample read `value`; `samples` of them.
        case steady(value: Double, samples: Int)
        case varied
    }

    private struct Watch: Sendable {
        /// The device's pressure range, looked up once; nil: nothing to watch.
        let range: PressureRange?
        /// Contacts in a row that read only `stuckAt`.
        var stillContacts = 0
        var stuckAt: Double?
        var dead = false
        /// Contacts down now, and what each read.
        var readings: [Int: Reading] = [:]

        mutating func observe(_ event: ContactEvent) -> Change? {
            guard let range else { return nil }
            let value = event.pressure ?? range.min
            // A hover's pressure is none (a pen's tip in the air reads its minimum, or, under
            // libinput, the pressure the tip last had): it brings nothing back.
            if dead, value != stuckAt, event.phase != .hover {
                dead = false
                stillContacts = 0
                stuckAt = nil
                if event.phase == .begin || event.phase == .move { readings[event.contact] = .varied }
                return .alive(event.device)
            }
            switch event.phase {
            case .begin:
                readings[event.contact] = .steady(value: value, samples: 1)
            case .move:
                // Written at most a few times per contact, not per sample: counted up to what
                // `stuckSamples` asks, and once when it varies.
                if case .steady(let steady, let samples)? = readings[event.contact] {
                    if steady != value {
                        readings[event.contact] = .varied
                    } else if samples < PressureLiveness.stuckSamples {
                        readings[event.contact] = .steady(value: steady, samples: samples + 1)
                    }
                }
            case .end:
                let reading = readings.removeValue(forKey: event.contact) ?? .varied
                guard case .steady(let steady, let samples) = reading, steady == value else {
                    stillContacts = 0
                    stuckAt = nil
                    return nil
                }
                let atMinimum = steady <= range.min
                guard atMinimum || samples + 1 >= PressureLiveness.stuckSamples else { return nil }
                stillContacts = stuckAt == steady ? stillContacts + 1 : 1
                stuckAt = steady
                if !dead, stillContacts >= (atMinimum ? PressureLiveness.deadContacts : PressureLiveness.stuckContacts) {
                    dead = true
                    return .dead(event.device)
                }
            case .cancel:
                readings[event.contact] = nil
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
