import GestureKit

/// What a performer has pressed and not yet released, in press order, and which gestures hold
/// each.
///
/// Two contacts may each hold the same button (two fingers, each in a `press: 2` drag): X hears
/// it pressed once, at the first, and released once, when the last lets go, so the first lift
/// does not end the other's drag. One gesture pressing again what it holds (a threshold crossed
/// after another) adds nothing: its one release lets go. A release from a gesture that holds
/// nothing of it lets go for all, as X would hear it: no button stays down for want of a
/// release its presser never sends. Releasing everything goes in reverse order, as a person
/// lets go of a key combination.
public struct HeldInputs: Sendable, Hashable {
    public enum Input: Sendable, Hashable {
        case button(Int)
        case keycode(UInt8)
    }

    /// A gesture on one contact: what holds an input.
    public struct Holder: Sendable, Hashable {
        public var contact: ContactKey
        public var gesture: String

        /// The gesture and contact that fired `event`.
        public init(_ event: ActionEvent) {
            contact = event.contact
            gesture = event.gesture
        }
    }

    /// Each input held, once, in the order X heard it pressed.
    public private(set) var inputs: [Input] = []
    /// The gestures holding each input in `inputs`.
    private var holders: [Input: Set<Holder>] = [:]

    public init() {}

    public var isEmpty: Bool { inputs.isEmpty }

    /// Whether `contact` holds a pointer button down (a `press:` it fired).
    public func holdsButton(for contact: ContactKey) -> Bool {
        holders.contains { input, holders in
            if case .button = input { holders.contains { $0.contact == contact } } else { false }
        }
    }

    /// The contacts whose gestures hold `input` (none when it is not held).
    public func contacts(holding input: Input) -> Set<ContactKey> {
        Set(holders[input]?.map(\.contact) ?? [])
    }

    public func contains(_ input: Input) -> Bool {
        holders[input] != nil
    }

    /// True when X is to hear it pressed: it was not held. A press of what is held adds its
    /// gesture to the holders and is not sent.
    @discardableResult
    public mutating func press(_ input: Input, by holder: Holder) -> Bool {
        if holders[input] != nil {
            holders[input]?.insert(holder)
            return false
        }
        holders[input] = [holder]
        inputs.append(input)
        return true
    }

    /// True when X is to hear it released: no other gesture holds it now. False when it was not
    /// held, or another gesture keeps it.
    @discardableResult
    public mutating func release(_ input: Input, by holder: Holder) -> Bool {
        guard var held = holders[input] else { return false }
        if held.remove(holder) != nil, !held.isEmpty {
            holders[input] = held
            return false
        }
        forget(input)
        return true
    }

    /// X heard it released by other means (a click of a held button): no gesture holds it.
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
