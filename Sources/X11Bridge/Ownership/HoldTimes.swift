/// When each held contact began, for saying how long its input was held back.
struct HoldTimes<Key: Hashable> {
    private var begins: [Key: Double] = [:]

    mutating func began(_ key: Key, at time: Double) { begins[key] = time }

    mutating func forget(_ key: Key) { begins[key] = nil }

    mutating func forgetAll() { begins.removeAll() }

    /// When `key` began; nil when its beginning was not seen.
    func start(of key: Key) -> Double? { begins[key] }

    /// Seconds since `key` began; nil when its beginning was not seen.
    func held(_ key: Key, now: Double) -> Double? {
        begins[key].map { now - $0 }
    }
}
