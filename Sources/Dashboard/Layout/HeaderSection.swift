import TrafficFilter
import CacheStore
import Foundation
import CacheEvents
import SessionLog
import HTTPCaching
import TerminalUI

/// The figures at the top: mode, uptime, request rate, hit ratios, latency, counts by outcome,
/// bytes, evictions and the store gauges. Every figure comes from ``TrafficCounters`` or the
/// model's windows, so the header, the Stats view and `--summary` agree.
enum HeaderSection {
    static func draw(into grid: inout Grid, state: DashboardState, geometry: ScreenGeometry, now: Double) {
        let width = geometry.size.columns
        let model = state.shown
        let lines: [[Span]]
        if geometry.isCompact {
            lines = [
                Chunk.fit(summaryChunks(state, model: model, now: now, compact: true, width: width) + gaugeChunks(model, compact: true), width: width),
                Chunk.fit(outcomeChunks(model.counters, compact: true), width: width),
            ]
        } else {
            lines = [
                Chunk.fit(summaryChunks(state, model: model, now: now, compact: false, width: width), width: width),
                Chunk.fit(outcomeChunks(model.counters, compact: false), width: width),
                Chunk.fit(byteChunks(model, now: now), width: width),
                Chunk.fit(gaugeChunks(model, compact: false, width: width) + [expiryChunk(model, now: now)], width: width),
            ]
        }
        for (row, line) in lines.enumerated() {
            grid.write(line, x: 0, y: row, maxWidth: width)
        }
    }

    // MARK: Line 1: mode and headline figures

    static func modeSpans(_ state: DashboardState, now: Double) -> [Span] {
        var spans: [Span]
        switch state.interface.mode {
        case .live:
            spans = [Span("LIVE", .status, attributes: .bold)]
        case .attached(let process):
            spans = [Span("ATTACHED", .status, attributes: .bold), Span(" " + Escaped.text(process), .status)]
            let roster = state.interface.instances
            if roster.isFleet {
                // A fleet: how many instances, and how many are gone (their rows stay, marked ✗):
                // gone as the model counts it, so the figure agrees with the totals beside it.
                let gone = state.shown.goneCount(roster: roster)
                spans = [Span("ATTACHED", .status, attributes: .bold), Span(" \(roster.instances.count) instances", .status)]
                if gone > 0 { spans.append(Span(" (\(gone) gone)", .error, attributes: .bold)) }
            }
        case .replay(let replay):
            let position = "\(Format.clock(replay.position))/\(Format.clock(replay.length))"
            spans = [
                Span("REPLAY", .status, attributes: .bold),
                Span(" \(replay.speed) \(position) ", .status),
                replay.isPlaying ? Span("PLAYING", .status) : Span("PAUSED", .warning, attributes: .bold),
            ]
        }
        if state.isPaused {
            let (word, instant) = (state.rewoundTo == nil ? "FROZEN" : "REWIND", state.frozenClock)
            spans += [Span(" "), Span(word, .warning, attributes: .bold), Span(" " + Format.clock(instant), .warning)]
        }
        return spans
    }

    private static func summaryChunks(_ state: DashboardState, model: TrafficModel, now: Double, compact: Bool, width: Int) -> [Chunk] {
        let counters = model.counters
        var chunks: [Chunk] = []
        if !compact { chunks.append(Chunk([Span("CacheScope", .title, attributes: .bold)], short: [], shrinksFirst: true)) }
        chunks.append(Chunk(modeSpans(state, now: now)))
        if let filter = state.interface.filter {
            // The active filter is always on the first line, before the figures that shrink
            // first; cut to half the line when short of room, so it never pushes them all off.
            let text = Escaped.typed(filter.text)
            let cut = TextWidth.truncated(text, to: max(8, width / 2 - 2))
            chunks.append(Chunk([Span("filter ", .warning), Span(text, .warning, attributes: .bold)],
                                short: [Span("f:", .warning), Span(cut, .warning, attributes: .bold)]))
        }
        // Frozen or rewound, the instant shown is `FROZEN`'s or `REWIND`'s: an uptime beside it
        // (the last event's time, while the rewind's is where it was moved to) would contradict it.
        if !state.interface.mode.isReplay, !state.isPaused {
            chunks.append(Chunk([Span("up ", .dim), Span(Format.clock(now))]))
        }
        let rate = String(format: "%.1f", model.requestRate(at: now))
        chunks.append(Chunk([Span(rate), Span(" req/s", .dim)]))
        chunks.append(Chunk(
            [Span("hit ratio ", .dim), Span(Format.percent(counters.hitRatio), attributes: .bold)],
            short: [Span("hit ", .dim), Span(Format.percent(counters.hitRatio), attributes: .bold)]))
        chunks.append(Chunk(
            [Span("byte hit ratio ", .dim), Span(Format.percent(counters.byteHitRatio))],
            short: [Span("bytes ", .dim), Span(Format.percent(counters.byteHitRatio))]))
        let p50 = Format.latency(model.latency.percentile(0.5))
        let p99 = Format.latency(model.latency.percentile(0.99))
        chunks.append(Chunk(
            [Span("p50 ", .dim), Span(p50), Span(" p99 ", .dim), Span(p99)],
            short: [Span("p50 ", .dim), Span(p50)]))
        return chunks
    }

    // MARK: Line 2: counts by outcome

    private static func outcomeChunks(_ counters: TrafficCounters, compact: Bool) -> [Chunk] {
        var chunks: [Chunk] = []
        if !compact {
            chunks.append(Chunk(
                [Span(Format.count(counters.requests), attributes: .bold), Span(" requests", .dim)],
                short: [Span(Format.count(counters.requests), attributes: .bold), Span(" req", .dim)]))
        }
        for outcome in CacheOutcome.allCases {
            let role = OutcomeStyle.role(outcome)
            chunks.append(countChunk(
                glyph: OutcomeStyle.glyph(outcome), name: outcome.rawValue, shortName: OutcomeStyle.shortName(outcome),
                count: counters.count(outcome), role: role, compact: compact))
        }
        // Coalescing is not an outcome (coalesced requests count with the one they got): last.
        chunks.append(countChunk(
            glyph: OutcomeStyle.coalescedGlyph, name: "coalesced", shortName: "coal", count: counters.coalesced,
            role: .coalesced, compact: compact))
        // The cache's own stale-while-revalidate refreshes are not requests: counted apart.
        if counters.backgroundRefreshes > 0 {
            let number = Format.count(counters.backgroundRefreshes)
            chunks.append(compact
                ? Chunk([Span("bg" + number, .dim)])
                : Chunk([Span("background ", .dim), Span(number)], short: [Span("bg ", .dim), Span(number)]))
        }
        return chunks
    }

    private static func countChunk(
        glyph: String, name: String, shortName: String, count: Int, role: ThemeRole, compact: Bool
    ) -> Chunk {
        let number = Format.count(count)
        if compact { return Chunk([Span(glyph + number, role)]) }
        return Chunk([Span("\(glyph) \(name) ", role), Span(number)], short: [Span("\(glyph) \(shortName) ", role), Span(number)])
    }

    // MARK: Line 3: bytes and evictions

    private static func byteChunks(_ model: TrafficModel, now: Double) -> [Chunk] {
        let counters = model.counters
        var chunks = [
            Chunk([Span("from cache ", .dim), Span(Format.bytes(counters.bytesFromCache))],
                  short: [Span("cache ", .dim), Span(Format.bytes(counters.bytesFromCache))]),
            Chunk([Span("from network ", .dim), Span(Format.bytes(counters.bytesFromNetwork))],
                  short: [Span("net ", .dim), Span(Format.bytes(counters.bytesFromNetwork))]),
            Chunk([Span("saved ", .dim), Span(Format.bytes(counters.bytesSaved), .hit)]),
        ]
        var evictions: [Span] = [Span("evictions/s", .dim)]
        // The short form (narrow terminals) names only the causes that are evicting now.
        var short: [Span] = [Span("evict/s", .dim)]
        for reason in EvictionReason.allCases {
            let rate = String(format: "%.1f", model.evictionRate(reason, at: now))
            evictions += [Span(" \(reason.displayName) ", .dim), Span(rate)]
            if rate != "0.0" { short += [Span(" \(reason.displayName.prefix(3)) ", .dim), Span(rate)] }
        }
        if short.count == 1 { short.append(Span(" 0.0")) }
        chunks.append(Chunk(evictions, short: short))
        if counters.droppedEvents > 0 {
            chunks.insert(Chunk(
                [Span("! \(Format.count(counters.droppedEvents)) events dropped (the dashboard fell behind)", .warning)],
                short: [Span("! \(Format.count(counters.droppedEvents)) dropped", .warning)]), at: 0)
        }
        return chunks
    }

    // MARK: Line 4: gauges

    private static func gaugeChunks(_ model: TrafficModel, compact: Bool, width: Int = 0) -> [Chunk] {
        guard let store = model.store else {
            return [Chunk([Span("store: waiting for its first statistics", .dim)], short: [Span("store: –", .dim)])]
        }
        // A disk that failed keeps its gauge (what it held when it failed), with a warning first:
        // the entries of those namespaces now live in memory only.
        let failed = store.degradedNamespaces
        if compact {
            var spans = [Span("mem ", .dim), Span(Format.percent(fraction(store.memoryUsed, store.memoryCapacity)))]
            if store.diskCapacity > 0 {
                spans += [Span(" disk ", .dim), Span(Format.percent(fraction(store.diskUsed, store.diskCapacity)))]
            }
            if !failed.isEmpty { spans += [Span(" disk failed", .warning)] }
            return [Chunk(spans)]
        }
        let barWidth = width >= 150 ? 20 : width >= 110 ? 14 : 8
        var chunks = [gauge("memory", short: "mem", used: store.memoryUsed, capacity: store.memoryCapacity, barWidth: barWidth)]
        if store.diskCapacity > 0 {
            chunks.append(gauge("disk", short: "disk", used: store.diskUsed, capacity: store.diskCapacity, barWidth: barWidth))
        } else {
            chunks.append(Chunk([Span("disk ", .dim), Span("none (memory only)", .dim)], short: []))
        }
        chunks.append(Chunk([Span("entries ", .dim), Span(Format.count(store.entryCount))],
                            short: [Span("ent ", .dim), Span(Format.count(store.entryCount))]))
        if !failed.isEmpty {
            chunks.insert(Chunk(
                [Span("! disk failed (\(failed.joined(separator: ", "))): entries kept in memory only", .warning)],
                short: [Span("! disk failed", .warning)]), at: 0)
        }
        return chunks
    }

    private static func gauge(_ name: String, short: String, used: Int, capacity: Int, barWidth: Int) -> Chunk {
        let share = fraction(used, capacity)
        let figures = [Span(" \(Format.bytes(used))"), Span(" of \(Format.bytes(capacity))", .dim)]
        return Chunk(
            [Span(name + " ", .dim)] + bar(share ?? 0, width: barWidth, role: .gauge) + figures,
            short: [Span(short + " ", .dim)] + bar(share ?? 0, width: max(4, barWidth / 2), role: .gauge)
                + [Span(" \(Format.percent(share))")])
    }

    /// `expiring 10s 2 · 1m 5 · 10m 9`: entries whose freshness runs out within each horizon
    /// (the Stats view's expiry timeline in short); the first item the line gives up.
    private static func expiryChunk(_ model: TrafficModel, now: Double) -> Chunk {
        let outlook = ExpiryOutlook.current(model.entries, at: now)
        var spans = [Span("expiring", .dim)]
        for (index, horizon) in ExpiryOutlook.horizons.enumerated() {
            let count = outlook.entries[index]
            spans += [Span(index == 0 ? " " : " · ", .dim), Span(Format.duration(horizon) + " ", .dim),
                      Span(Format.count(count), count > 0 && index == 0 ? .ttlExpiring : .text)]
        }
        return Chunk(spans, short: [])
    }

    static func fraction(_ used: Int, _ capacity: Int) -> Double? {
        capacity > 0 ? Double(used) / Double(capacity) : nil
    }

    /// A bar as two spans: the filled part in `role`, the track in `gauge-empty`.
    static func bar(_ fraction: Double, width: Int, role: ThemeRole) -> [Span] {
        let parts = Grid.barParts(fraction: fraction, width: width, style: .blocks)
        return [Span(parts.filled, role), Span(parts.empty, .gaugeEmpty)].filter { !$0.text.isEmpty }
    }
}

extension EvictionReason {
    /// The word the header and Stats view use: capacity, expired, purged, corrupt, invalidated.
    var displayName: String { self == .purged ? "purged" : rawValue }
}
