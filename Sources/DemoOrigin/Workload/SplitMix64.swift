// MARK: - A small, seedable, platform-independent random number generator

/// Sebastiano Vigna's SplitMix64: a fast 64-bit generator whose whole state is one `UInt64`,
/// so the same seed gives the same sequence on every machine and run (unlike
/// `SystemRandomNumberGenerator`). Good enough for workloads; not for cryptography.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let roll = Int.random(in: 1...6, using: &rng)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension RandomNumberGenerator {
    /// A uniform `Double` in `0..<1` from the top 53 bits of `next()`, defined here rather
    /// than through `Double.random(in:using:)` so the mapping from bits can never change.
    mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
