/// What a performer has pressed and not yet released, in press order.
///
/// Releasing goes in reverse order, as a person lets go of a key combination.
public struct HeldInputs: Sendable, Hashable {
    public enum Input: Sendable, Hashable {
        case button(Int)
        case keycode(UInt8)
    }

    public private(set) var inputs: [Input] = []

    public init() {}

    public var isEmpty: Bool { inputs.isEmpty }

    public func contains(_ input: Input) -> Bool {
        inputs.contains(input)
    }

    /// False when it was already held (a second press of the same button is not sent).
    @discardableResult
    public mutating func press(_ input: Input) -> Bool {
        guard !inputs.contains(input) else { return false }
        inputs.append(input)
        return true
    }

    /// False when it was not held.
    @discardableResult
    public mutating func release(_ input: Input) -> Bool {
        guard let index = inputs.lastIndex(of: input) else { return false }
        inputs.remove(at: index)
        return true
    }

    /// Everything held, last pressed first, and forgets it.
    public mutating func takeAllForRelease() -> [Input] {
        defer { inputs.removeAll() }
        return inputs.reversed()
    }
}
