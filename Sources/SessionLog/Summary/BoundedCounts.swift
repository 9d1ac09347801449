/// Counts per name (URL, cache key) in bounded memory, for a summary that may run for days
/// over millions of distinct URLs.
///
/// Exact while at most ``capacity`` names have been seen. When one more arrives, the names
/// counted least are dropped together — every name at or under the smallest count that leaves
/// at most half the capacity — and their counts are forgotten; a dropped name seen again
/// starts over. So a count kept is short by at most ``undercount`` (the highest count dropped
/// so far), and a name that keeps coming back stays. Deterministic: the same names in the same
/// order give the same counts, whatever the process.
public struct BoundedCounts: Sendable, Hashable {
    /// The most names held: 10,000.
    public static let capacity = 10_000

    /// The counts held.
    public private(set) var counts: [String: Int] = [:]
    /// How far below the truth a held count may be: 0 while nothing has been dropped.
    public private(set) var undercount = 0
    private let capacity: Int

    /// Empty counts holding at most `capacity` (at least 2) names.
    public init(capacity: Int = BoundedCounts.capacity) {
        self.capacity = max(2, capacity)
    }

    /// Counts one more of `name`.
    public mutating func add(_ name: String) {
        counts[name, default: 0] += 1
        if counts.count > capacity { dropLeastCounted() }
    }

    /// Drops every name counted at most the smallest threshold above ``undercount`` that leaves
    /// at most half the capacity: the count of the name ranked just past that half.
    private mutating func dropLeastCounted() {
        let ranked = counts.values.sorted(by: >)
        let threshold = max(undercount + 1, ranked[capacity / 2])
        counts = counts.filter { $0.value > threshold }
        undercount = threshold
    }
}
