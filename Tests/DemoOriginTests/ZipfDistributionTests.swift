import Foundation
import Testing

@testable import DemoOrigin

@Suite("Zipf popularity", .timeLimit(.minutes(2)))
struct ZipfDistributionTests {
    @Test("probabilities follow 1/k^s and sum to 1")
    func probabilities() throws {
        let zipf = try ZipfDistribution(count: 100, exponent: 1.1)
        let total = (1...100).map(zipf.probability(ofRank:)).reduce(0, +)
        #expect(abs(total - 1) < 1e-9)
        let ratio = zipf.probability(ofRank: 1) / zipf.probability(ofRank: 2)
        #expect(abs(ratio - pow(2, 1.1)) < 1e-9)
        #expect(zipf.probability(ofRank: 0) == 0 && zipf.probability(ofRank: 101) == 0)
    }

    @Test("samples stay in 1...n, rank 1 is the most frequent, frequencies match the law")
    func sampling() throws {
        let n = 50
        let zipf = try ZipfDistribution(count: n, exponent: 1.1)
        var rng = SplitMix64(seed: 2024)
        var counts = [Int](repeating: 0, count: n + 1)
        let draws = 100_000
        var outOfRange = 0
        for _ in 0..<draws {
            let rank = zipf.sample(using: &rng)
            if (1...n).contains(rank) { counts[rank] += 1 } else { outOfRange += 1 }
        }
        #expect(outOfRange == 0)
        #expect(counts[1] == counts.max())
        #expect(counts[1] > counts[2] && counts[2] > counts[3] && counts[3] > counts[10])
        for rank in [1, 2, 5, 10, 50] {
            let observed = Double(counts[rank]) / Double(draws)
            let expected = zipf.probability(ofRank: rank)
            // Generous: five standard deviations of a binomial proportion, plus a floor.
            let tolerance = 5 * (expected * (1 - expected) / Double(draws)).squareRoot() + 1e-4
            #expect(abs(observed - expected) < tolerance, "rank \(rank): \(observed) vs \(expected)")
        }
        let chiSquare = (1...n).reduce(0.0) { sum, rank in
            let expected = zipf.probability(ofRank: rank) * Double(draws)
            return sum + pow(Double(counts[rank]) - expected, 2) / expected
        }
        #expect(chiSquare < 100, "49 degrees of freedom: 100 is far beyond the 99.9th percentile (~86)")
    }

    @Test("exponent 0 is uniform; boundaries of the uniform draw map to the first and last rank")
    func edges() throws {
        let uniform = try ZipfDistribution(count: 4, exponent: 0)
        #expect((1...4).allSatisfy { abs(uniform.probability(ofRank: $0) - 0.25) < 1e-12 })
        #expect(uniform.rank(forUniform: 0) == 1)
        #expect(uniform.rank(forUniform: 0.2499) == 1)
        #expect(uniform.rank(forUniform: 0.25) == 2)
        #expect(uniform.rank(forUniform: 0.999_999_999) == 4)
        let single = try ZipfDistribution(count: 1, exponent: 1.1)
        var rng = SplitMix64(seed: 1)
        #expect(single.sample(using: &rng) == 1)
    }

    @Test("invalid parameters are rejected with the setting named")
    func invalid() {
        #expect(throws: WorkloadError.invalidUniverseSize(0)) { try ZipfDistribution(count: 0, exponent: 1) }
        #expect(throws: WorkloadError.invalidZipfExponent(-1)) { try ZipfDistribution(count: 3, exponent: -1) }
        #expect(throws: WorkloadError.invalidZipfExponent(.infinity)) { try ZipfDistribution(count: 3, exponent: .infinity) }
    }

    @Test("SplitMix64 gives the reference sequence for seed 0")
    func splitMixReference() {
        var rng = SplitMix64(seed: 0)
        // First outputs of Vigna's reference splitmix64.c seeded with 0.
        #expect(rng.next() == 0xE220_A839_7B1D_CDAF)
        #expect(rng.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(rng.next() == 0x06C4_5D18_8009_454F)
    }
}
