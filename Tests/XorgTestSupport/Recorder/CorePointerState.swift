/// The core pointer as XQueryPointer reports it.
public struct CorePointerState: Sendable, Equatable {
    public var rootX: Int
    public var rootY: Int
    /// Core buttons 1...5 that are down right now.
    public var buttonsHeld: [Int]

    public init(rootX: Int, rootY: Int, buttonsHeld: [Int]) {
        self.rootX = rootX
        self.rootY = rootY
        self.buttonsHeld = buttonsHeld
    }
}
