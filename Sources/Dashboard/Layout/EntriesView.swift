import CacheEvents
import SessionLog
import TerminalUI
import TrafficFilter
import CacheStore

/// The Entries view: one row per stored response — key, tier, size, age, TTL counting down with
/// a bar coloured fresh / expiring / expired, validators, hits and last access.
enum EntriesView {
    static let columns: [TableColumn] = [
        TableColumn(id: "key", title: "KEY", width: 20, flex: 3),
        TableColumn(id: "tier", title: "TIER", width: 4, priority: 4),
        TableColumn(id: "size", title: "SIZE", width: 6, priority: 2, alignment: .right),
        TableColumn(id: "age", title: "AGE", width: 6, priority: 6, alignment: .right),
        TableColumn(id: "ttl", title: "TTL", width: 7, priority: 1, alignment: .right),
        TableColumn(id: "bar", title: "FRESH", width: 8, priority: 5),
        TableColumn(id: "validators", title: "VALIDATORS", width: 14, flex: 1, priority: 8),
        TableColumn(id: "hits", title: "HITS", width: 5, priority: 3, alignment: .right),
        TableColumn(id: "last", title: "LAST HIT", width: 8, priority: 7, alignment: .right),
    ]

    static func draw(into grid: inout Grid, state: DashboardState, geometry: ScreenGeometry, window: EntryWindow, now: Double) {
        let roster = state.interface.instances
        let table = TableLayout(InstanceColumn.adding(to: columns, after: "key", roster: roster), width: geometry.size.columns)
        let sort = state.interface.sort
        let sortedID = sort.column == .url ? "key" : sort.column.rawValue
        let naturallyDescending = sort.column == .size || sort.column == .hits
        table.drawHeader(into: &grid, y: geometry.bodyTop, sorted: (sortedID, naturallyDescending != sort.reversed),
                         drill: state.interface.drillColumn == nil ? nil : state.drillColumnID)
        guard !window.rows.isEmpty else {
            let stored = state.shown.entries.count
            let message =
                if let filter = state.interface.filter, stored > 0 {
                    "No entry of the \(stored) stored matches the filter \(Escaped.typed(filter.text)): Esc clears it, f changes it."
                } else {
                    "Nothing stored yet: cacheable responses appear here when the store keeps them."
                }
            grid.write(message, x: 1,  // the filter escaped in it
                       y: geometry.bodyTop + 1, role: .dim, maxWidth: geometry.size.columns - 2, overflow: .ellipsis)
            return
        }
        let keyWidth = table.placed.first { $0.column.id == "key" }?.width ?? 20
        let query = state.interface.search.highlight
        for row in 0..<geometry.listRows {
            let index = window.top + row
            guard index < window.rows.count else { break }
            let entry = window.rows[index]
            let marked = state.interface.marks.contains(PurgeTarget(key: entry.ref.key, instance: entry.instance))
            table.drawRow(
                into: &grid, y: geometry.bodyTop + 1 + row,
                cells: { column in
                    column == InstanceColumn.id
                        ? InstanceColumn.cell(instance: entry.instance, name: entry.instanceName, roster: roster)
                        : cells(entry, column: column, keyWidth: keyWidth, query: query, now: now)
                },
                role: index == window.selectedIndex ? .selection : marked ? .marked : nil,
                gutter: marked ? Span("•", .marked) : nil)
        }
    }

    static func cells(_ entry: EntryRecord, column: String, keyWidth: Int, query: String, now: Double) -> [Span] {
        switch column {
        case "key":
            var spans = SearchHighlight.spans(DisplayURL.fittedKey(entry.ref.key, width: keyWidth), query: query, role: .text)
            if !entry.ref.variant.isEmpty { spans.append(Span(" [\(Escaped.text(entry.ref.variant))]", .dim)) }
            return spans
        case "tier":
            switch entry.tier {
            case .memory: return [Span("mem")]
            case .disk: return [Span("disk")]
            case .both: return [Span("both")]
            }
        case "size": return [Span(Format.shortBytes(entry.size))]
        case "age": return [Span(Format.duration(entry.age(at: now)), .dim)]
        case "ttl": return ttlSpans(entry, now: now)
        case "bar": return ttlBar(entry, now: now, width: 8)
        case "validators": return validatorSpans(entry)
        case "hits": return [Span(Format.count(entry.hits))]
        case "last":
            guard let last = entry.lastAccess else { return [Span("never", .dim)] }
            return [Span(Format.duration(max(0, now - last)) + " ago", .dim)]
        default: return []
        }
    }

    /// `42s` (fresh), `4s!` (expiring), `-12s` (expired, 11 to 12 seconds ago): the sign and the `!` carry the state
    /// without colour.
    static func ttlSpans(_ entry: EntryRecord, now: Double) -> [Span] {
        guard let ttl = entry.ttl(at: now), let state = entry.ttlState(at: now) else { return [Span("–", .dim)] }
        switch state {
        case .fresh: return [Span(Format.duration(ttl), .ttlFresh)]
        case .expiring: return [Span(Format.duration(ttl) + "!", .ttlExpiring, attributes: .bold)]
        // The TTL rounded down, as a fresh one is: the count goes `1s!`, `0s!`, `-1s`, each
        // shown for one second, never `-0s`.
        case .expired: return [Span("-" + Format.staleness(ttl), .ttlExpired)]
        }
    }

    /// A bar of the freshness left against the lifetime; `stale` once it has run out.
    static func ttlBar(_ entry: EntryRecord, now: Double, width: Int) -> [Span] {
        guard let ttl = entry.ttl(at: now), let state = entry.ttlState(at: now) else { return [] }
        switch state {
        case .expired: return [Span("stale", .ttlExpired)]
        case .fresh, .expiring:
            let lifetime = max(entry.lifetime ?? ttl, ttl, 0.001)
            return HeaderSection.bar(ttl / lifetime, width: width, role: state == .fresh ? .ttlFresh : .ttlExpiring)
        }
    }

    static func validatorSpans(_ entry: EntryRecord) -> [Span] {
        var spans: [Span] = []
        if let etag = entry.etag { spans.append(Span(Escaped.text(etag))) }
        if let lastModified = entry.lastModified {
            if !spans.isEmpty { spans.append(Span(" · ", .dim)) }
            spans.append(Span(Escaped.text(lastModified), .dim))
        }
        return spans.isEmpty ? [Span("none", .dim)] : spans
    }
}
