/// Contact sources that appeared, changed (a new axis range) or went away.
public struct DeviceChanges: Sendable, Hashable {
    public var added: [X11Device] = []
    public var updated: [X11Device] = []
    public var removed: [X11Device] = []

    public init(added: [X11Device] = [], updated: [X11Device] = [], removed: [X11Device] = []) {
        self.added = added
        self.updated = updated
        self.removed = removed
    }

    public var isEmpty: Bool { added.isEmpty && updated.isEmpty && removed.isEmpty }
}
