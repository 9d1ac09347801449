import CacheEvents
import CacheStore
import Foundation
import TerminalUI

/// The Stats view's sections above the figure table: hit ratios side by side, the expiry
/// timeline, the top missed URLs and evictions by cause over time.
enum StatsSections {
    /// The most missed URLs listed: 10.
    static let missedURLCount = 10

    // MARK: Ratios

    /// Request hit ratio and byte hit ratio side by side, each with a bar and what it divides;
    /// one above the other when the width is short.
    static func ratios(_ model: TrafficModel, width: Int) -> [[Span]] {
        let counters = model.counters
        let barWidth = width >= 120 ? 20 : 10
        func half(_ label: String, _ ratio: Double?, _ detail: String) -> [Span] {
            [Span("  " + label + " ", .dim), Span(Format.percent(ratio), attributes: .bold), Span(" ")]
                + HeaderSection.bar(ratio ?? 0, width: barWidth, role: .gauge) + [Span(" " + detail, .dim)]
        }
        let request = half("request hit ratio", counters.hitRatio,
                           "\(Format.count(counters.servedFromCache)) of \(Format.count(counters.cacheableRequests)) requests")
        let bytes = half("byte hit ratio", counters.byteHitRatio,
                         "\(Format.bytes(counters.bytesFromCache)) of \(Format.bytes(counters.bytesServed))")
        let gap = max(3, width / 2 - request.width)
        if request.width + gap + bytes.width <= width { return [request + [Span(String(repeating: " ", count: gap))] + bytes] }
        return [request, bytes]
    }

    // MARK: Expiry timeline

    /// Entries and bytes whose freshness runs out within 10 s, 1 min and 10 min of `now`.
    static func expiry(_ model: TrafficModel, now: Double) -> [[Span]] {
        let outlook = ExpiryOutlook.current(model.entries, at: now)
        var lines: [[Span]] = []
        for (index, horizon) in ExpiryOutlook.horizons.enumerated() {
            let count = outlook.entries[index]
            lines.append([
                Span("  within " + TextWidth.pad(Format.duration(horizon), to: 4, left: false), .dim),
                Span(TextWidth.pad(Format.count(count), to: 8), count > 0 ? .ttlExpiring : .text, attributes: .bold),
                Span(count == 1 ? " entry  " : " entries", .dim),
                Span(TextWidth.pad(Format.bytes(outlook.bytes[index]), to: 12)),
            ])
        }
        lines.append([Span("  already stale ", .dim), Span(TextWidth.pad(Format.count(outlook.expired), to: 5), outlook.expired > 0 ? .ttlExpired : .text),
                      Span(" (served stale or revalidated on their next request)", .dim)])
        return lines
    }

    // MARK: Top missed URLs

    /// The most missed URLs of the kept requests, each with its miss reason: the reason first,
    /// at its full width, and the URL after it, cut when the line is too long.
    static func missedURLs(_ model: TrafficModel, width: Int) -> [[Span]] {
        let top = MissedURL.top(in: model.requests, limit: missedURLCount)
        guard !top.isEmpty else { return [[Span("  no misses among the kept requests", .dim)]] }
        let reasons = top.map { Escaped.text($0.reason) }
        let reasonWidth = reasons.map(TextWidth.of).max() ?? 0
        let countWidth = top.map { Format.count($0.count).count }.max() ?? 1
        let urlWidth = max(10, width - 2 - countWidth - 2 - reasonWidth - 2)
        return zip(top, reasons).map { missed, reason in
            [Span("  " + TextWidth.pad(Format.count(missed.count), to: countWidth) + "  ", attributes: .bold),
             Span(TextWidth.pad(reason, to: reasonWidth, left: false) + "  ", .miss),
             Span(DisplayURL.fitted(missed.url, width: urlWidth))]
        }
    }

    // MARK: Evictions over time

    /// One sparkline per cause over the whole session, its total and its rate now.
    static func evictions(_ model: TrafficModel, width: Int, now: Double, style: Grid.BarStyle) -> [[Span]] {
        let timeline = model.timeline
        let buckets = timeline.wholeSession(endingAt: now)
        let columns = min(SparklineRow.maximumColumns, max(4, width - 40), max(1, buckets.count))
        let (merged, perColumn, _) = buckets.merged(toAtMost: columns)
        var lines: [[Span]] = EvictionReason.allCases.map { reason in
            let line = Sparkline(values: merged.map { $0.evictions(reason) > 0 ? Double($0.evictions(reason)) : nil }, scale: nil)
            return [Span("  " + TextWidth.pad(reason.displayName, to: 9, left: false), .dim)] + line.spans(style: style)
                + [Span(String(repeating: " ", count: max(0, columns - merged.count)) + " "),
                   Span(TextWidth.pad(Format.count(model.counters.evictions[reason] ?? 0), to: 8), attributes: .bold),
                   Span(" total  " + Format.rate(model.evictionRate(reason, at: now)) + " now", .dim)]
        }
        let seconds = Format.duration(timeline.bucketWidth * Double(perColumn))
        lines.append([Span("  the whole session, \(seconds) a column; the marked column is the peak", .dim)])
        return lines
    }
}
