import CacheStore
import CacheEvents
import SessionLog
import HTTPCaching
import TerminalUI

/// The Stats view: the latency histogram by outcome and its percentiles, the hit ratios side by
/// side, the expiry timeline, the top missed URLs and evictions over time; then every figure of
/// the header with its definition (the ones ``FigureDefinitions`` holds, which the help repeats).
enum StatsContent {
    static func lines(_ model: TrafficModel, width: Int, now: Double, style: Grid.BarStyle, chartRows: Int) -> [[Span]] {
        var lines: [[Span]] = [TextViews.heading("Latency by outcome")]
        lines += LatencyChart.lines(model, width: width, rows: chartRows)
        lines.append([])
        lines += LatencyChart.percentileLines(model, width: width)
        lines += [[], TextViews.heading("Hit ratios")]
        lines += StatsSections.ratios(model, width: width)
        lines += [[], TextViews.heading("Expiring soon (freshness runs out)")]
        lines += StatsSections.expiry(model, now: now)
        lines += [[], TextViews.heading("Top missed URLs and why (of the last \(Format.count(model.requests.capacity)) requests)")]
        lines += StatsSections.missedURLs(model, width: width)
        lines += [[], TextViews.heading("Evictions by cause over time")]
        lines += StatsSections.evictions(model, width: width, now: now, style: style)
        lines += [[], TextViews.heading("Every figure and its definition"), []]
        return lines + figureLines(model, width: width, now: now)
    }

    /// Every figure of the header in more detail, each with its definition.
    private static func figureLines(_ model: TrafficModel, width: Int, now: Double) -> [[Span]] {
        let counters = model.counters
        var lines: [[Span]] = []
        // Wide terminals put the definition beside the figure; narrow ones below it.
        let besides = width >= 72
        func row(_ label: String, _ value: String, _ definition: String, role: ThemeRole = .text) {
            // The longest label (`evicted: invalidated`) and value (`0.40ms / 200ms`) fit with a
            // space each side.
            let labelWidth = besides ? 23 : 20
            let valueText = String(repeating: " ", count: max(0, 15 - TextWidth.of(value))) + value
            let labelText = "  " + label + String(repeating: " ", count: max(1, labelWidth - 2 - TextWidth.of(label)))
            let figure = [Span(labelText, role), Span(valueText, .text, attributes: .bold)]
            if besides {
                lines += TextViews.wrap(figure + [Span("   " + definition, .dim)], width: width, indent: labelWidth + 18)
            } else {
                lines += TextViews.wrap(figure, width: width, indent: 4)
                lines += TextViews.wrap([Span("    " + definition, .dim)], width: width, indent: 4)
            }
        }

        lines.append(TextViews.heading("Requests"))
        row("finished requests", Format.count(counters.requests), FigureDefinitions.requests)
        for outcome in CacheOutcome.allCases {
            row("\(OutcomeStyle.glyph(outcome)) \(outcome.rawValue)", Format.count(counters.count(outcome)),
                FigureDefinitions.outcome(outcome), role: OutcomeStyle.role(outcome))
        }
        row("\(OutcomeStyle.coalescedGlyph) coalesced", Format.count(counters.coalesced), FigureDefinitions.coalesced, role: .coalesced)
        row("in flight", Format.count(model.requests.openCount), "started and not yet finished")
        if counters.backgroundRefreshes > 0 {
            row("background refreshes", Format.count(counters.backgroundRefreshes), FigureDefinitions.backgroundRefreshes)
        }

        lines.append([])
        lines.append(TextViews.heading("Ratios"))
        let cacheable = counters.cacheableRequests
        row("request hit ratio", Format.percent(counters.hitRatio),
            FigureDefinitions.hitRatio + " = \(Format.count(counters.servedFromCache)) ÷ \(Format.count(cacheable))")
        row("byte hit ratio", Format.percent(counters.byteHitRatio), FigureDefinitions.byteHitRatio)

        lines.append([])
        lines.append(TextViews.heading("Bytes"))
        row("from cache", Format.bytes(counters.bytesFromCache), FigureDefinitions.bytesFromCache)
        row("from network", Format.bytes(counters.bytesFromNetwork), FigureDefinitions.bytesFromNetwork)
        row("bandwidth saved", Format.bytes(counters.bytesSaved), FigureDefinitions.bytesSaved)

        lines.append([])
        lines.append(TextViews.heading("Speed"))
        row("requests/s", Format.rate(model.requestRate(at: now)), FigureDefinitions.requestRate)
        row("latency p50", Format.latency(model.latency.percentile(0.5)), FigureDefinitions.latencyP50)
        row("latency p99", Format.latency(model.latency.percentile(0.99)), FigureDefinitions.latencyP99)
        row("latency min / max", "\(Format.latency(model.latency.minimum)) / \(Format.latency(model.latency.maximum))",
            "the fastest and slowest finished request")

        lines.append([])
        lines.append(TextViews.heading("Store"))
        if let store = model.store {
            row("memory used", Format.bytes(store.memoryUsed),
                "of \(Format.bytes(store.memoryCapacity)) (\(Format.percent(HeaderSection.fraction(store.memoryUsed, store.memoryCapacity))))")
            if store.diskCapacity > 0 {
                row("disk used", Format.bytes(store.diskUsed),
                    "of \(Format.bytes(store.diskCapacity)) (\(Format.percent(HeaderSection.fraction(store.diskUsed, store.diskCapacity))))")
            } else {
                row("disk used", "–", "no disk tier: the store keeps responses in memory only")
            }
            row("entries", Format.count(store.entryCount), FigureDefinitions.entries)
        } else {
            row("store", "–", "no statistics received yet (they come about once a second)")
        }
        for reason in EvictionReason.allCases {
            row("evicted: \(reason.displayName)", Format.count(counters.evictions[reason] ?? 0),
                "\(Format.rate(model.evictionRate(reason, at: now))) now; " + FigureDefinitions.eviction(reason))
        }

        lines.append([])
        lines.append(TextViews.heading("Session"))
        row("events applied", Format.count(model.eventsApplied), "every event this dashboard has folded in")
        row("events dropped", Format.count(counters.droppedEvents), FigureDefinitions.dropped,
            role: counters.droppedEvents > 0 ? .warning : .text)
        if let error = model.lastError {
            row("last error", Format.eventTime(error.time), Escaped.text(error.message), role: .error)
        }
        if let purge = model.lastSharedPurge {
            let what = purge.key ?? "everything"
            row("shared purge", Format.eventTime(purge.time),
                Escaped.text("from \(purge.origin): \(what), \(Format.count(purge.count)) \(purge.count == 1 ? "entry" : "entries") dropped here"))
        }
        return lines
    }
}

/// The definition of every figure, in one place for the Stats view, the help and the docs.
enum FigureDefinitions {
    static let requests = "requests that completed, whatever their outcome"
    static let hitRatio = "(hit + stale + revalidated) ÷ (hit + stale + revalidated + modified + miss + error); bypass is left out"
    static let byteHitRatio = "bytes from cache ÷ (bytes from cache + bytes from network)"
    static let bytesFromCache = "body bytes served from the store"
    static let bytesFromNetwork = "body bytes received from the origin (a 304 carries none)"
    static let bytesSaved = "the bytes from cache: they did not cross the network"
    static let requestRate = "finished requests over the last 10 s of session time, in whole-second buckets"
    static let latencyP50 = "half the finished requests took less (from a histogram, within 6 %)"
    static let latencyP99 = "99 % of the finished requests took less"
    static let entries = "distinct stored responses (each Vary variant counts), as the store reports"
    static let backgroundRefreshes = "the cache's own stale-while-revalidate refreshes: not counted as requests"
    static let coalesced = "shared another request's origin fetch; also counted under the outcome it got"
    static let dropped = "events this dashboard missed because it fell behind (figures may undercount)"
    static let sparklines = "the row under the header: requests/s and request hit ratio over the last 60 s of session time, "
        + "one column a second or more (a replay: the whole session up to the playhead); the peak column is marked and named"
    static let histogram = "Stats: latency of finished requests on a log scale (whole decades), a column's height its count, "
        + "stacked by outcome with one glyph each; p50 / p95 / p99 per outcome from the same 20-buckets-a-decade histograms"
    static let expiring = "stored entries whose freshness runs out within the next 10 s, 1 min, 10 min (cumulative), and their bytes"
    static let missedURLs = "the URLs with the most misses among the kept requests, each with the reason it missed"
    static let evictionsOverTime = "evictions by cause over the whole session, one sparkline a cause"

    static func outcome(_ outcome: CacheOutcome) -> String {
        switch outcome {
        case .hit: "served fresh from the cache, no origin contact"
        case .stale: "served stale from the cache (stale-while-revalidate, stale-if-error, max-stale)"
        case .revalidated: "a conditional request got 304 Not Modified; the stored body was served"
        case .modified: "a conditional request got a new response (200); it replaced the stored one"
        case .miss: "nothing usable was stored; the response came from the origin"
        case .bypass: "the cache was not consulted (method, policy or request directives)"
        case .error: "no response could be produced (origin failure, only-if-cached with nothing stored)"
        }
    }

    static func eviction(_ reason: EvictionReason) -> String {
        switch reason {
        case .capacity: "removed to make room (least recently used first)"
        case .expired: "removed because its retention time passed"
        case .purged: "removed by a purge (d, D, e or the API)"
        case .corrupt: "removed because its file failed an integrity check"
        case .invalidated: "removed because a POST, PUT, DELETE or PATCH to it succeeded (RFC 9111 §4.4)"
        }
    }
}
