import GestureKit

/// Shows the sound volume on the ring of a knob that changes it: while a contact turns a
/// knob bound to `{volume: ...}` (with `ring` feedback), a progress ring at the knob's center
/// is filled to the level last read back; it goes when the contact lifts.
///
/// It watches the engine's outputs for which contact fired a volume action, and turns the
/// levels the performer reads back into the overlay's `.progress` feedback for those contacts.
struct VolumeRing {
    /// The contacts turning a volume knob, with where their ring is drawn.
    private var turning: [ContactKey: Point] = [:]
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
                return turning.removeValue(forKey: key) == nil ? [] : [.progressEnded(key)]
            }
            lastReport = (event.gesture, key, event.report.position)
            return []
        case .action(let action):
            guard case .volume = action.action, let report = lastReport, report.gesture == action.gesture,
                  turning[report.key] == nil,
                  let binding = configuration.bindings.first(where: { $0.name == action.gesture }),
                  binding.feedback.contains(.ring) else { return [] }
            var center = report.position
            if case .knob(let settings) = binding.recognizer {
                center = settings.resolve(screen: screen).center
            }
            turning[report.key] = center
            return level.map { [.progress(report.key, at: center, fraction: $0)] } ?? []
        case .feedback, .decision, .bug:
            return []
        }
    }

    /// A level read back: every turning knob's ring shows it.
    mutating func levelRead(_ value: Double) -> [Feedback] {
        level = value
        return turning.sorted { $0.key < $1.key }.map { .progress($0.key, at: $0.value, fraction: value) }
    }
}
