/// Which of the device names bindings give to warn of: a name no device had since the bridge
/// started (a typo, a device renamed), once, and again only when the nearest connected name
/// changes. A device that was here and went (a Bluetooth tablet asleep, a cable pulled) is
/// not warned of: its going is reported as a removal, and the binding's name is right.
struct MissingDeviceWatch {
    struct Missing: Hashable {
        var binding: String
        var name: String
        var suggestion: String?
    }

    /// What the last check found missing, so a change that leaves it missing says nothing.
    private var missing: Set<Missing> = []
    /// Every device name connected (or disabled) at some check since the bridge started.
    private var seen: Set<String> = []

    /// The missing names to warn of now, given what is missing and which names are connected:
    /// all that were never seen (`reportingAll`, at start and after a reload) or only those
    /// newly missing.
    mutating func check(_ found: [Missing], connected: [String], reportingAll: Bool) -> [Missing] {
        seen.formUnion(connected)
        let told = found.filter { !seen.contains($0.name) && (reportingAll || !missing.contains($0)) }
        missing = Set(found)
        return told
    }
}
