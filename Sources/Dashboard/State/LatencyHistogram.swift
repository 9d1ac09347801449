import Foundation

/// Request latencies in logarithmic buckets, so percentiles cost constant memory however many
/// requests a session has.
///
/// Buckets are 1/20 of a decade wide from 10 µs to 100 s (140 buckets; faster or slower
/// requests land in the end buckets). A percentile is reported as its bucket's geometric
/// middle, within ±6 % of the true value (in the open-ended end buckets: the exact minimum or
/// maximum, which are kept too).
public struct LatencyHistogram: Sendable, Hashable {
    /// Buckets per decade: 20.
    static let bucketsPerDecade = 20.0
    /// The lower edge of the first bucket: 10 µs.
    static let lowest = 1e-5
    /// Number of buckets: 7 decades × 20.
    static let bucketCount = 140

    private var buckets = [Int](repeating: 0, count: LatencyHistogram.bucketCount)
    /// Latencies recorded.
    public private(set) var count = 0
    /// The smallest latency recorded.
    public private(set) var minimum: Double?
    /// The largest latency recorded.
    public private(set) var maximum: Double?

    /// An empty histogram.
    public init() {}

    /// Records one latency in seconds (negative and NaN values count as 0).
    public mutating func record(_ seconds: Double) {
        let value = seconds.isNaN ? 0 : max(0, seconds)
        buckets[Self.bucket(of: value)] += 1
        count += 1
        minimum = Swift.min(minimum ?? value, value)
        maximum = Swift.max(maximum ?? value, value)
    }

    /// The latency below which `fraction` (0…1) of the requests fall, or `nil` when empty.
    public func percentile(_ fraction: Double) -> Double? {
        guard count > 0, let minimum, let maximum else { return nil }
        let rank = Swift.max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for (index, bucketCount) in buckets.enumerated() {
            seen += bucketCount
            guard seen >= rank else { continue }
            // The end buckets are open-ended: what was seen there is the best answer.
            if index == 0 { return minimum }
            if index == Self.bucketCount - 1 { return maximum }
            return Swift.min(Swift.max(Self.middle(of: index), minimum), maximum)
        }
        return maximum
    }

    /// Latencies recorded in bucket `index` (0 ..< 140).
    func count(inBucket index: Int) -> Int { buckets[index] }

    static func bucket(of seconds: Double) -> Int {
        guard seconds > lowest else { return 0 }
        let index = Int((log10(seconds / lowest) * bucketsPerDecade).rounded(.down))
        return Swift.min(Swift.max(index, 0), bucketCount - 1)
    }

    /// The lower edge of bucket `index` in seconds.
    static func lowerEdge(of index: Int) -> Double {
        lowest * pow(10, Double(index) / bucketsPerDecade)
    }

    static func middle(of bucket: Int) -> Double {
        lowest * pow(10, (Double(bucket) + 0.5) / bucketsPerDecade)
    }
}
