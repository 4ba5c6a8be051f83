import CX11

/// When each held contact began, for saying how long its input was held back.
struct HoldTimes<Key: Hashable> {
    private var begins: [Key: Double] = [:]

    mutating func began(_ key: Key, at time: Double) { begins[key] = time }

    mutating func forget(_ key: Key) { begins[key] = nil }

    mutating func forgetAll() { begins.removeAll() }

    /// "120 ms", or a plain word when the beginning was not seen.
    func heldFor(_ key: Key, now: Double) -> String {
        guard let begin = begins[key] else { return "for an unknown time" }
        return "\(Int(((now - begin) * 1000).rounded())) ms"
    }
}

extension XIGrabModifiers {
    /// A passive grab's modifier list that matches whatever modifiers are down:
    /// XIAnyModifier (1 << 31), which Swift does not import as a constant.
    static var anyModifiers: [XIGrabModifiers] {
        [XIGrabModifiers(modifiers: Int32(bitPattern: 0x8000_0000), status: 0)]
    }
}
