/// The top of a tally, as every "most missed" and "most evicted" list ranks it: most first,
/// ties by key (ascending), at most a limit — the session summary's top lists and the
/// dashboard's top missed URLs rank alike.
///
/// ```swift
/// CountRanking.top(["b": 2, "a": 2, "c": 5], limit: 2)   // [("c", 5), ("a", 2)]
/// ```
public enum CountRanking {
    /// The `limit` (at least 0) keys with the highest counts, most first, ties by key.
    public static func top<Key: Comparable>(_ counts: [Key: Int], limit: Int) -> [(key: Key, count: Int)] {
        counts
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(max(0, limit))
            .map { (key: $0.key, count: $0.value) }
    }
}
