import Glibc
import GestureKit

/// Shows the sound volume on the ring of a knob that changes it: while a contact turns a
/// knob bound to `{volume: ...}` (with `ring` feedback), a progress ring at the knob's center
/// is filled to the level last read back; it goes when the contact lifts.
///
/// It watches the engine's outputs for volume actions, each with the contact that fired it,
/// and turns the levels the performer reads back into the overlay's `.progress` feedback for
/// those contacts.
struct VolumeRing {
    /// The contacts turning a volume knob: which binding, and where its ring is drawn.
    private var turning: [ContactKey: (gesture: String, center: Point)] = [:]
    /// Where each knob being turned has its center, from its reports: placed when its contact
    /// began, it stays there whatever the screen or the config does meanwhile (a monitor
    /// plugged, a reload).
    private var knobCenters: [ContactKey: Point] = [:]
    private var level: Double?

    /// The feedback to show for one engine output, in order after it.
    mutating func observe(_ output: EngineOutput, configuration: BindingSet, screen: ScreenSize,
                          monitors: MonitorLayout = .none) -> [Feedback] {
        switch output {
        case .gesture(let event):
            let key = ContactKey(device: event.device, contact: event.contact)
            if let knob = event.report.knob {
                let position = event.report.position
                knobCenters[key] = event.report.state.isFinal ? nil
                    : Point(x: position.x - knob.distance * cos(knob.angle), y: position.y - knob.distance * sin(knob.angle))
            }
            // Another binding on the same contact may end (a watching force gesture) while the knob turns on.
            guard event.report.state.isFinal, turning[key]?.gesture == event.gesture else { return [] }
            turning[key] = nil
            return [.progressEnded(key)]
        case .action(let action):
            guard case .volume = action.action, turning[action.contact] == nil,
                  let binding = configuration.bindings.first(where: { $0.name == action.gesture }),
                  binding.feedback.contains(.ring),
                  case .knob(let settings) = binding.recognizer else { return [] }
            // A deep press's ring shows its force; only a knob's ring turns into the level.
            let center = knobCenters[action.contact] ?? settings.resolve(screen: screen, monitors: monitors).center
            turning[action.contact] = (action.gesture, center)
            return level.map { [.progress(action.contact, at: center, fraction: $0)] } ?? []
        case .feedback, .decision, .learned, .bug:
            return []
        }
    }

    /// A change that failed (the sound server gone, restarting after a resume): the level last
    /// read says nothing of the volume now, so no turning knob's ring shows it; a level read
    /// later brings them back.
    mutating func changeFailed() -> [Feedback] {
        levelUnknown()
    }

    /// The level read says nothing of what is heard (the output muted: found in review, the
    /// ring showed 40%, 35%, … while nothing was audible), or nothing was read: no turning
    /// knob's ring shows a level until one is read again.
    mutating func levelUnknown() -> [Feedback] {
        level = nil
        return turning.keys.sorted().map { .progressEnded($0) }
    }

    /// A level read back: every turning knob's ring shows it.
    mutating func levelRead(_ value: Double) -> [Feedback] {
        level = value
        return turning.sorted { $0.key < $1.key }.map { .progress($0.key, at: $0.value.center, fraction: value) }
    }
}
