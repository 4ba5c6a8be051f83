import GestureKit

/// Shows the sound volume on the ring of a knob that changes it: while a contact turns a
/// knob bound to `{volume: ...}` (with `ring` feedback), a progress ring at the knob's center
/// is filled to the level last read back; it goes when the contact lifts.
///
/// It watches the engine's outputs for which contact fired a volume action, and turns the
/// levels the performer reads back into the overlay's `.progress` feedback for those contacts.
struct VolumeRing {
    /// The contacts turning a volume knob: which binding, and where its ring is drawn.
    private var turning: [ContactKey: (gesture: String, center: Point)] = [:]
    /// The contact whose report came last: the engine emits a report, then its actions.
    private var lastReport: (gesture: String, key: ContactKey, position: Point)?
    private var level: Double?

    /// The feedback to show for one engine output, in order after it.
    mutating func observe(_ output: EngineOutput, configuration: BindingSet, screen: ScreenSize) -> [Feedback] {
        switch output {
        case .gesture(let event):
            let key = ContactKey(device: event.device, contact: event.contact)
            if event.report.state.isFinal {
                lastReport = nil
                // Another binding on the same contact may end (a watching force gesture) while the knob turns on.
                guard turning[key]?.gesture == event.gesture else { return [] }
                turning[key] = nil
                return [.progressEnded(key)]
            }
            lastReport = (event.gesture, key, event.report.position)
            return []
        case .action(let action):
            guard case .volume = action.action, let report = lastReport, report.gesture == action.gesture,
                  turning[report.key] == nil,
                  let binding = configuration.bindings.first(where: { $0.name == action.gesture }),
                  binding.feedback.contains(.ring),
                  case .knob(let settings) = binding.recognizer else { return [] }
            // A deep press's ring shows its force; only a knob's ring turns into the level.
            let center = settings.resolve(screen: screen).center
            turning[report.key] = (action.gesture, center)
            return level.map { [.progress(report.key, at: center, fraction: $0)] } ?? []
        case .feedback, .decision, .bug:
            return []
        }
    }

    /// A level read back: every turning knob's ring shows it.
    mutating func levelRead(_ value: Double) -> [Feedback] {
        level = value
        return turning.sorted { $0.key < $1.key }.map { .progress($0.key, at: $0.value.center, fraction: value) }
    }
}
