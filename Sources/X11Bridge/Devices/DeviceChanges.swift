/// Contact sources that appeared, changed (a new axis range), were mapped to another part of
/// the screen, or went away.
public struct DeviceChanges: Sendable, Hashable {
    public var added: [X11Device] = []
    public var updated: [X11Device] = []
    /// Changed in nothing but the part of the screen they are mapped to: what was found of
    /// their input (a pressure axis that never moves) still holds.
    public var remapped: [X11Device] = []
    public var removed: [X11Device] = []

    public init(added: [X11Device] = [], updated: [X11Device] = [], remapped: [X11Device] = [], removed: [X11Device] = []) {
        self.added = added
        self.updated = updated
        self.remapped = remapped
        self.removed = removed
    }

    public var isEmpty: Bool { added.isEmpty && updated.isEmpty && remapped.isEmpty && removed.isEmpty }
}
