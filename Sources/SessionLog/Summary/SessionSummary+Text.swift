import CacheStore
import CacheEvents
import Foundation
import HTTPCaching

extension SessionSummary {
    /// The summary as plain text for a terminal (`cachescope replay FILE --summary`):
    ///
    /// ```text
    /// Session: 1,204 events over 61.5 s
    /// Requests: 200 (6 coalesced), and 3 background refreshes
    ///   hit            120   60.0%
    ///   …
    /// Hit ratio: 71.3% of 195 requests (bypass excluded)
    /// Byte hit ratio: 64.0% (625.0 KiB from cache, 351.6 KiB from network)
    /// Bytes saved: 625.0 KiB (640,000 bytes)
    /// Evictions: 4 (capacity 3, expired 1, purge 0, corrupt 0)
    /// Dropped events: 0
    ///
    /// Top missed URLs:
    ///        9  https://example.com/a
    /// Top evicted keys:
    ///        2  GET https://example.com/b
    /// ```
    ///
    /// Numbers use `,` between thousands and `.` for decimals whatever the locale.
    public var text: String {
        let counters = counters
        var lines: [String] = []
        lines.append("Session: \(Self.grouped(eventCount)) events over \(Self.decimal(duration)) s")
        var requests = "Requests: \(Self.grouped(counters.requests)) (\(Self.grouped(counters.coalesced)) coalesced)"
        if counters.backgroundRefreshes > 0 {
            requests += ", and \(Self.grouped(counters.backgroundRefreshes)) background refreshes"
        }
        lines.append(requests)
        for outcome in CacheOutcome.allCases {
            let count = counters.count(outcome)
            let share = counters.requests > 0 ? Self.percent(Double(count) / Double(counters.requests)) : "-"
            lines.append("  " + outcome.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
                + Self.grouped(count).leftPadded(to: 8) + share.leftPadded(to: 9))
        }
        if let ratio = counters.hitRatio {
            lines.append("Hit ratio: \(Self.percent(ratio)) of \(Self.grouped(counters.cacheableRequests)) requests (bypass excluded)")
        } else {
            lines.append("Hit ratio: n/a (no requests the cache could answer)")
        }
        if let ratio = counters.byteHitRatio {
            lines.append("Byte hit ratio: \(Self.percent(ratio)) (\(Self.bytes(counters.bytesFromCache)) from cache, "
                + "\(Self.bytes(counters.bytesFromNetwork)) from network)")
        } else {
            lines.append("Byte hit ratio: n/a (no body bytes)")
        }
        lines.append("Bytes saved: \(Self.bytes(counters.bytesSaved)) (\(Self.grouped(counters.bytesSaved)) bytes)")
        let reasons = EvictionReason.allCases.map { "\($0.rawValue) \(Self.grouped(counters.evictions[$0] ?? 0))" }
        let evictions = counters.totalEvictions
        lines.append("Evictions: \(Self.grouped(evictions)) (\(reasons.joined(separator: ", ")))")
        lines.append("Dropped events: \(Self.grouped(counters.droppedEvents))")
        lines.append("")
        lines.append("Top missed URLs:" + Self.undercountNote(missUndercount, of: "URLs missed"))
        lines.append(contentsOf: Self.ranked(topMissedURLs().map { ($0.url, $0.count) }))
        lines.append("Top evicted keys:" + Self.undercountNote(evictionUndercount, of: "keys evicted"))
        lines.append(contentsOf: Self.ranked(topEvictedKeys().map { ($0.key, $0.count) }))
        return lines.joined(separator: "\n") + "\n"
    }

    /// After a top list's title, when its counts may be short (see ``BoundedCounts``).
    private static func undercountNote(_ undercount: Int, of what: String) -> String {
        guard undercount > 0 else { return "" }
        return " (more than \(grouped(BoundedCounts.capacity)) \(what); counts may be short by up to \(grouped(undercount)))"
    }

    // MARK: Formatting

    private static func ranked(_ rows: [(String, Int)]) -> [String] {
        guard !rows.isEmpty else { return ["  (none)"] }
        return rows.map { grouped($0.1).leftPadded(to: 8) + "  " + $0.0 }
    }

    /// `1234567` → `1,234,567`: digits grouped in threes, the same in every locale (the
    /// dashboard writes counts this way too).
    public static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }

    /// `61.5` (one decimal).
    static func decimal(_ value: Double) -> String { String(format: "%.1f", value) }

    /// `71.3%`.
    public static func percent(_ ratio: Double) -> String { String(format: "%.1f%%", ratio * 100) }

    /// `625.0 KiB`, `1.2 MiB` (binary units), `512 B`.
    public static func bytes(_ count: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard count >= 1024 else { return "\(count) B" }
        var value = Double(count) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f ", value) + units[unit]
    }
}

extension String {
    /// The string right-aligned in `width` columns.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
