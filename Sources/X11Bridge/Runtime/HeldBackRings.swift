import GestureKit

/// Force rings held back until their contact's press or touch is known to be the bridge's:
/// one another program's grab took (a screen locker, an open menu) is drawn nothing over.
/// The ownership classes say whether a contact still awaits its press or touch; this keeps
/// the newest ring of each contact that does, and hands it out once that is settled.
struct HeldBackRings {
    private var rings: [ContactKey: Feedback] = [:]

    /// The feedback to show now for one of the engine's: a ring of a contact that awaits its
    /// ownership is kept instead (nil); any other feedback of that contact supersedes it.
    mutating func pass(_ feedback: Feedback, awaitsOwnership: (ContactKey) -> Bool) -> Feedback? {
        switch feedback {
        case .progress(let key, _, _) where awaitsOwnership(key):
            rings[key] = feedback
            return nil
        case .progress(let key, _, _), .progressEnded(let key):
            rings[key] = nil
            return feedback
        case .pulse:
            return feedback
        }
    }

    /// The ring kept for `key`, once its ownership is settled as the bridge's; nil while it
    /// still awaits, or when none is kept.
    mutating func settled(_ key: ContactKey, awaitsOwnership: (ContactKey) -> Bool) -> Feedback? {
        guard rings[key] != nil, !awaitsOwnership(key) else { return nil }
        return rings.removeValue(forKey: key)
    }

    /// Forgets a contact's ring: the contact ended, or went to the application.
    mutating func drop(_ key: ContactKey) {
        rings[key] = nil
    }
}
