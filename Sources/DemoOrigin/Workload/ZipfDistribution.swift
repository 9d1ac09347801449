import Foundation

// MARK: - Zipf popularity: a few URLs are hot, most are cold

/// The Zipf distribution over ranks `1...count`: P(k) ∝ 1 / kˢ.
///
/// Web popularity roughly follows it with s ≈ 1, which is what makes caching pay: the first
/// ranks get most of the traffic. The cumulative distribution is computed once (O(n) memory),
/// then each sample is a uniform draw and a binary search, O(log n).
///
/// ```swift
/// let zipf = try ZipfDistribution(count: 100, exponent: 1.1)
/// var rng = SplitMix64(seed: 7)
/// let rank = zipf.sample(using: &rng)   // 1 is the most likely
/// ```
public struct ZipfDistribution: Sendable {
    /// The largest rank accepted by ``init(count:exponent:)``.
    public static let maximumCount = 1_000_000

    /// The number of ranks, n.
    public let count: Int
    /// The exponent s; 0 gives the uniform distribution.
    public let exponent: Double
    /// `cumulative[k - 1]` = P(rank ≤ k); the last element is exactly 1.
    private let cumulative: [Double]

    /// Precomputes the distribution over `1...count`.
    ///
    /// - Throws: ``WorkloadError/invalidUniverseSize(_:)`` unless `1 <= count <= maximumCount`;
    ///   ``WorkloadError/invalidZipfExponent(_:)`` unless `exponent` is finite and `0...10`.
    public init(count: Int, exponent: Double) throws(WorkloadError) {
        guard (1...Self.maximumCount).contains(count) else { throw .invalidUniverseSize(count) }
        guard exponent.isFinite, (0...10).contains(exponent) else { throw .invalidZipfExponent(exponent) }
        self.count = count
        self.exponent = exponent
        var running = 0.0
        var sums: [Double] = []
        sums.reserveCapacity(count)
        for rank in 1...count {
            running += 1 / pow(Double(rank), exponent)
            sums.append(running)
        }
        let total = running
        var normalized = sums.map { $0 / total }
        normalized[count - 1] = 1  // guard against rounding leaving the top just below 1
        cumulative = normalized
    }

    /// P(rank = `rank`), or 0 outside `1...count`.
    public func probability(ofRank rank: Int) -> Double {
        guard (1...count).contains(rank) else { return 0 }
        return rank == 1 ? cumulative[0] : cumulative[rank - 1] - cumulative[rank - 2]
    }

    /// A rank in `1...count` drawn with P(k) ∝ 1 / kˢ.
    public func sample<G: RandomNumberGenerator>(using generator: inout G) -> Int {
        rank(forUniform: generator.nextUnitInterval())
    }

    /// The rank whose cumulative interval contains `u` (0 ≤ u < 1): the first k with
    /// P(rank ≤ k) > u.
    func rank(forUniform u: Double) -> Int {
        var low = 0
        var high = count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > u { high = middle } else { low = middle + 1 }
        }
        return low + 1
    }
}
