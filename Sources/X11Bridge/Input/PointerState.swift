import GestureKit

/// Where a master pointer is and which of its buttons are down.
public struct PointerState: Sendable, Hashable {
    public var position: Point
    /// Logical button numbers held down (1 left, 2 middle, 3 right, ...).
    public var buttons: Set<Int>
}
