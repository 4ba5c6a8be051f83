import SeededRandom

/// The draws of one chaos episode: SplitMix64, whose whole state is one number, so an episode's
/// plan follows from its seed and number alone, on every machine and toolchain.
struct ChaosRandom: RandomNumberGenerator {
    private var generator: SplitMix64

    /// The generator of episode `number` of the run seeded `seed`.
    init(seed: UInt64, episode number: Int) {
        generator = SplitMix64(
            seed: seed &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: number) &* 0xBF58_476D_1CE4_E5B9)
        _ = next()
    }

    mutating func next() -> UInt64 {
        generator.next()
    }

    /// A value in `range`, rounded to `places` decimals so a plan written to a file reads back
    /// exactly.
    mutating func value(in range: ClosedRange<Double>, places: Int = 3) -> Double {
        let scale = Double.pow10(places)
        return (Double.random(in: range, using: &self) * scale).rounded() / scale
    }

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }
}

extension Double {
    fileprivate static func pow10(_ places: Int) -> Double {
        (0..<places).reduce(1) { value, _ in value * 10 }
    }
}
