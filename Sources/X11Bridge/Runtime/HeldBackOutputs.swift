import GestureKit

/// What the engine says of a contact whose press or touch may be another program's, held back
/// until that is settled: a screen locker's or an open menu's grab takes a press before the
/// bridge's passive grab can, and nothing may then be run, clicked, typed or drawn over it.
/// The ownership classes say whether a contact still awaits its grabbed press or touch (it
/// comes right behind the raw one, so this holds for a moment, or while another client's grab
/// freezes the pointer). Once it comes, all that was held goes out in order; once another
/// grab is found to have it, none of it does, nor anything the contact says after (its
/// watching gestures' actions, its end's), until it ends: the press is that grab's.
///
/// A contact is held from the first output said while it awaits that would act or show: an
/// action, a pulse, a force ring, a claim of its input. Outputs before that (a gesture's
/// report, a release) go out at once, and from then on everything said of the contact waits
/// behind it, a ring replacing the ring just before it.
struct HeldBackOutputs {
    private var held: [ContactKey: [EngineOutput]] = [:]
    /// Contacts whose press or touch another grab took: what they say acts on nothing.
    private var taken: Set<ContactKey> = []

    /// The outputs to act on now, in order, for one the engine said: none while it belongs to
    /// a contact held back; with a contact's held outputs before it, once the contact no
    /// longer awaits its press or touch.
    mutating func pass(_ output: EngineOutput, awaitsOwnership: (ContactKey) -> Bool) -> [EngineOutput] {
        guard let key = output.contact else { return [output] }
        if taken.contains(key) { return Self.acts(output) ? [] : [output] }
        guard awaitsOwnership(key) else { return (held.removeValue(forKey: key) ?? []) + [output] }
        guard held[key] != nil || Self.acts(output) else { return [output] }
        if case .feedback(.progress)? = held[key]?.last, case .feedback(.progress) = output {
            held[key]?.removeLast()
        }
        held[key, default: []].append(output)
        return []
    }

    /// The outputs held for `key`, once its press or touch is known to be the bridge's; none
    /// while it still awaits, or when none are held.
    mutating func settled(_ key: ContactKey, awaitsOwnership: (ContactKey) -> Bool) -> [EngineOutput] {
        guard !awaitsOwnership(key) else { return [] }
        return held.removeValue(forKey: key) ?? []
    }

    /// The outputs held for every contact that no longer awaits its press or touch.
    mutating func settledAll(awaitsOwnership: (ContactKey) -> Bool) -> [EngineOutput] {
        held.keys.sorted().flatMap { settled($0, awaitsOwnership: awaitsOwnership) }
    }

    /// Whether anything of `key` is held.
    func holds(_ key: ContactKey) -> Bool {
        held[key] != nil
    }

    /// Drops what a contact said that would act, and all it will say that would until it ends:
    /// another grab has its press or touch. What it held that acts on nothing (a release,
    /// which the ownership classes carry out and `--json` reports; a gesture's report) is
    /// handed back, in order, to act on now.
    mutating func takenByAnotherGrab(_ key: ContactKey) -> [EngineOutput] {
        taken.insert(key)
        return forgetHeld(key)
    }

    /// Drops what a contact held that would act (its claim never acted: the contact goes to the
    /// application with a button of its own), handing back the rest, in order, to act on now.
    mutating func forgetHeld(_ key: ContactKey) -> [EngineOutput] {
        (held.removeValue(forKey: key) ?? []).filter { !Self.acts($0) }
    }

    /// Forgets a contact: it ended (what it held is acted on first: `settled`).
    mutating func drop(_ key: ContactKey) {
        held[key] = nil
        taken.remove(key)
    }

    /// Forgets what the contacts of a device that went away said.
    mutating func drop(device: Int) {
        held = held.filter { $0.key.device != device }
        taken = taken.filter { $0.device != device }
    }

    /// Whether an output would act on the desktop or draw over it (a ring hidden draws nothing).
    private static func acts(_ output: EngineOutput) -> Bool {
        switch output {
        case .action, .feedback(.pulse), .feedback(.progress), .decision(.claim): return true
        case .feedback(.progressEnded), .decision(.release), .gesture, .learned, .bug: return false
        }
    }
}
