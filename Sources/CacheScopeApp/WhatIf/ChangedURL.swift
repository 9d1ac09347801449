public import HTTPCaching

/// A URL whose requests got other outcomes in the what-if run than when recorded.
public struct ChangedURL: Sendable, Hashable {
    /// One kind of change and how often it happened.
    public struct Transition: Sendable, Hashable {
        /// The recorded outcome.
        public var from: CacheOutcome
        /// The what-if outcome.
        public var to: CacheOutcome
        /// Requests that changed so.
        public var count: Int
    }

    /// The URL.
    public var url: String
    /// Its requests in the recording.
    public var requests: Int
    /// Those whose outcome changed.
    public var changed: Int
    /// The changes, most frequent first.
    public var transitions: [Transition]

    /// The URLs ranked by changed requests (most first, ties by URL), at most `limit`, from
    /// each request's URL and its recorded and what-if outcome. A request with no recorded
    /// outcome (left out, or unfinished when the recording ended) is not compared; one that did
    /// not finish in the what-if run counts as `error` there.
    static func ranking(urls: [String], recorded: [CacheOutcome?], simulated: [CacheOutcome?], limit: Int) -> [ChangedURL] {
        var requests: [String: Int] = [:]
        var changes: [String: [Pair: Int]] = [:]
        for index in urls.indices {
            let url = urls[index]
            guard let from = recorded[index] else { continue }
            requests[url, default: 0] += 1
            let to = simulated.indices.contains(index) ? simulated[index] ?? .error : .error
            if from != to { changes[url, default: [:]][Pair(from: from, to: to), default: 0] += 1 }
        }
        let ranked = changes.map { url, pairs in
            ChangedURL(
                url: url, requests: requests[url] ?? 0, changed: pairs.values.reduce(0, +),
                transitions: pairs.map { Transition(from: $0.key.from, to: $0.key.to, count: $0.value) }
                    .sorted { ($1.count, $0.from.rawValue, $0.to.rawValue) < ($0.count, $1.from.rawValue, $1.to.rawValue) })
        }
        return Array(ranked.sorted { $0.changed != $1.changed ? $0.changed > $1.changed : $0.url < $1.url }.prefix(limit))
    }

    private struct Pair: Hashable {
        var from: CacheOutcome
        var to: CacheOutcome
    }
}
