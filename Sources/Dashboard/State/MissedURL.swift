import HTTPCaching
import SessionLog

/// The URLs that missed most among the requests the dashboard keeps, each with the reason it
/// missed: what a developer fixes headers for. A URL that missed for two reasons is two rows.
public struct MissedURL: Sendable, Hashable {
    /// The request's URL (untrusted text).
    public var url: String
    /// Why it missed, as the request's row says (e.g. `no-store`, `not in cache`).
    public var reason: String
    /// Misses with this URL and reason.
    public var count: Int

    /// The `limit` most frequent (URL, reason) pairs of the misses `log` keeps, most first
    /// (ties: the URL, then the reason, alphabetically), ranked as the session summary ranks
    /// its top lists (``CountRanking``).
    public static func top(in log: RequestLog, limit: Int) -> [MissedURL] {
        var counts: [Pair: Int] = [:]
        for serial in log.serials(where: { $0.outcome == .miss }) {
            guard let record = log[serial: serial] else { continue }
            counts[Pair(url: record.url, reason: record.reason), default: 0] += 1
        }
        return CountRanking.top(counts, limit: limit).map { MissedURL(url: $0.key.url, reason: $0.key.reason, count: $0.count) }
    }

    private struct Pair: Hashable, Comparable {
        var url: String
        var reason: String

        static func < (lhs: Pair, rhs: Pair) -> Bool { (lhs.url, lhs.reason) < (rhs.url, rhs.reason) }
    }
}
