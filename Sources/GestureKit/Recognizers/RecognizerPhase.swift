/// Where a recognizer is with its contact: waiting for it to go down, watching it (`Watch`: what
/// it keeps meanwhile), or done with it. The recognizers that follow a contact from its down to
/// its lift keep their state so, and let `route` sort each input: what cannot come in a phase
/// (a second down, a move before any down, a timeout never asked for) is the same bug for every
/// one of them, and after it is done a recognizer says nothing more. The long press, whose timer
/// adds inputs of its own, switches over its inputs itself.
enum RecognizerPhase<Watch: Sendable>: Sendable {
    case idle
    case watching(Watch)
    case done

    /// What an input means in the phase it came in.
    enum Route {
        /// The contact went down: the watch begins.
        case begin(ContactSample)
        /// The watched contact moved, or pressed harder or lighter.
        case move(Watch, ContactSample)
        /// The watched contact lifted.
        case up(Watch, ContactSample)
        /// The system took the watched contact away.
        case cancel(Watch, ContactSample)
        /// Nothing to watch: the step to return as it is (nothing once done, or a bug note).
        case settled(RecognizerStep)
    }

    func route(_ input: RecognizerInput, of kind: RecognizerKind) -> Route {
        switch (self, input) {
        case (.idle, .down(let sample)):
            return .begin(sample)
        case (.watching(let watch), .move(let sample)):
            return .move(watch, sample)
        case (.watching(let watch), .up(let sample)):
            return .up(watch, sample)
        case (.watching(let watch), .cancel(let sample)):
            return .cancel(watch, sample)
        case (.done, .move), (.done, .up), (.done, .cancel):
            return .settled(.nothing)
        case (.idle, .move), (.idle, .up), (.idle, .cancel), (.watching, .down), (.done, .down), (_, .timeout):
            return .settled(.unexpected(input, to: kind))
        }
    }

    /// Done with the contact, `reports` its last word.
    mutating func finish(_ reports: [GestureReport]) -> RecognizerStep {
        self = .done
        return RecognizerStep(reports: reports)
    }

    mutating func finish(_ report: GestureReport) -> RecognizerStep {
        finish([report])
    }

    /// The watched contact's force is now `force` (`last` before): a `changed` report, the
    /// watch going on as `next`; nothing when the force did not change.
    mutating func forceChanged(from last: Double, to force: Double, at sample: ContactSample,
                               watching next: Watch) -> RecognizerStep {
        guard force != last else { return .nothing }
        self = .watching(next)
        return .report(GestureReport(.changed, at: sample, force: force))
    }
}
