/// What a performer has pressed and not yet released, in press order, and for how many of the
/// gestures that pressed it.
///
/// Two contacts may each hold the same button (two fingers, each in a `press: 2` drag): X hears
/// it pressed once, at the first, and released once, when the last lets go; the first lift
/// must not end the other's drag. Releasing everything goes in reverse order, as a person lets
/// go of a key combination.
public struct HeldInputs: Sendable, Hashable {
    public enum Input: Sendable, Hashable {
        case button(Int)
        case keycode(UInt8)
    }

    /// Each input held, once, in the order X heard it pressed.
    public private(set) var inputs: [Input] = []
    /// How many presses hold each input in `inputs`.
    private var holders: [Input: Int] = [:]

    public init() {}

    public var isEmpty: Bool { inputs.isEmpty }

    public func contains(_ input: Input) -> Bool {
        holders[input] != nil
    }

    /// True when X is to hear it pressed: it was not held. A second press of what is held
    /// adds a holder and is not sent.
    @discardableResult
    public mutating func press(_ input: Input) -> Bool {
        if let count = holders[input] {
            holders[input] = count + 1
            return false
        }
        holders[input] = 1
        inputs.append(input)
        return true
    }

    /// True when X is to hear it released: its last holder let go. False when it was not held,
    /// or another holder keeps it.
    @discardableResult
    public mutating func release(_ input: Input) -> Bool {
        guard let count = holders[input] else { return false }
        guard count == 1 else {
            holders[input] = count - 1
            return false
        }
        forget(input)
        return true
    }

    /// X heard it released by other means (a click of a held button): no holder keeps it.
    public mutating func forget(_ input: Input) {
        holders[input] = nil
        inputs.removeAll { $0 == input }
    }

    /// Everything held, last pressed first, and forgets it.
    public mutating func takeAllForRelease() -> [Input] {
        defer {
            inputs.removeAll()
            holders.removeAll()
        }
        return inputs.reversed()
    }
}
