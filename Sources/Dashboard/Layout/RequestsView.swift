import CacheEvents
import SessionLog
import TerminalUI
import TrafficFilter
import HTTPCaching

/// The Requests view: the newest request first, one row each — time, method, URL, outcome and
/// reason, status, latency, bytes, age and TTL.
///
/// The OUTCOME column is as wide as the longest outcome and reason on screen (the reason says
/// why: it is never cut while the URL can give up columns); the URL takes what is left.
enum RequestsView {
    static let columns: [TableColumn] = [
        TableColumn(id: "time", title: "TIME", width: 7, priority: 1),
        TableColumn(id: "method", title: "METH", width: 4, priority: 4),
        TableColumn(id: "url", title: "URL", width: RequestsView.minimumURLWidth, flex: 1),
        TableColumn(id: "outcome", title: "OUTCOME", width: 18),
        TableColumn(id: "status", title: "ST", width: 3, priority: 2, alignment: .right),
        TableColumn(id: "latency", title: "LATENCY", width: 7, priority: 3, alignment: .right),
        TableColumn(id: "bytes", title: "BYTES", width: 6, priority: 5, alignment: .right),
        TableColumn(id: "age", title: "AGE", width: 6, priority: 6, alignment: .right),
        TableColumn(id: "ttl", title: "TTL", width: 7, priority: 7, alignment: .right),
    ]

    /// The narrowest the URL column gets before the reason is cut: 16.
    static let minimumURLWidth = 16

    static func draw(into grid: inout Grid, state: DashboardState, geometry: ScreenGeometry, window: RequestWindow) {
        let log = state.shown.requests
        // Each row's outcome and reason, built once: they size the column and fill it.
        let outcomes = window.serials.map { log[serial: $0].map(outcomeSpans) ?? [] }
        let roster = state.interface.instances
        let fitted = fittedColumns(outcomeWidth: outcomes.map(\.width).max() ?? 0, width: geometry.size.columns)
        let table = TableLayout(InstanceColumn.adding(to: fitted, after: "time", roster: roster), width: geometry.size.columns)
        table.drawHeader(into: &grid, y: geometry.bodyTop, drill: state.interface.drillColumn == nil ? nil : state.drillColumnID)
        guard !window.serials.isEmpty else {
            let message =
                if let filter = state.interface.filter, log.count > 0 {
                    "No request of the \(log.count) shown matches the filter \(Escaped.typed(filter.text)): Esc clears it, f changes it."
                } else {
                    "No requests yet: they appear here as the client makes them."
                }
            grid.write(message, x: 1, y: geometry.bodyTop + 1,  // the filter escaped in it
                       role: .dim, maxWidth: geometry.size.columns - 2, overflow: .ellipsis)
            return
        }
        let query = state.interface.search.highlight
        for (row, serial) in window.serials.enumerated() {
            guard let record = log[serial: serial] else { continue }
            let outcome = outcomes[row]
            let marked = !record.cacheKey.isEmpty && state.interface.marks.contains(PurgeTarget(key: record.cacheKey, instance: record.instance))
            let selected = serial == window.selected
            let urlWidth = table.placed.first { $0.column.id == "url" }?.width ?? 24
            table.drawRow(
                into: &grid, y: geometry.bodyTop + 1 + row,
                cells: { column in
                    switch column {
                    case "outcome": outcome
                    case InstanceColumn.id: InstanceColumn.cell(instance: record.instance, name: record.instanceName, roster: roster)
                    default: cells(record, column: column, urlWidth: urlWidth, query: query)
                    }
                },
                role: selected ? .selection : marked ? .marked : nil,
                gutter: marked ? Span("•", .marked) : nil)
        }
    }

    /// The columns with OUTCOME `outcomeWidth` wide — less only where the URL would get under
    /// ``minimumURLWidth`` even with every other column dropped (they all can be).
    static func fittedColumns(outcomeWidth: Int, width: Int) -> [TableColumn] {
        let room = width - 1 - (minimumURLWidth + 1)
        return columns.map { column in
            guard column.id == "outcome" else { return column }
            var outcome = column
            outcome.width = max(column.width, min(outcomeWidth, room))
            return outcome
        }
    }

    static func cells(_ record: RequestRecord, column: String, urlWidth: Int, query: String) -> [Span] {
        switch column {
        case "time": return [Span(Format.eventTime(record.started), .dim)]
        case "method": return [Span(Escaped.text(record.method))]
        case "url": return SearchHighlight.spans(DisplayURL.fitted(record.url, width: urlWidth), query: query, role: .text)
        case "outcome": return outcomeSpans(record)
        case "status":
            let status = record.status
            guard status > 0 else { return [Span(record.isFinished || record.isCutOff ? "–" : "…", .dim)] }
            return [Span(String(status), status >= 500 ? .error : status >= 400 ? .warning : .text)]
        case "latency": return [Span(record.finished.map { Format.latency($0.latency) } ?? (record.isCutOff ? "–" : "…"), .text)]
        case "bytes": return [Span(record.served.map { Format.shortBytes($0.bytes) } ?? "", .text)]
        case "age": return [Span(record.served?.age.map(Format.duration) ?? "", .dim)]
        case "ttl": return [Span(record.served?.ttl.map(Format.duration) ?? "", .dim)]
        default: return []
        }
    }

    /// `✓ HIT max-age=60`, `✗ MISS no-store`, `↻ REVALIDATED 304 (…)`; `… IN FLIGHT` before it ends;
    /// `✂ CUT OFF` when its instance went away before it ended (a fleet).
    /// The cache's own background refreshes start with `bg`, so they are not read as the app's.
    /// What a background refresh's outcome starts with.
    static let backgroundTag = "bg "

    static func outcomeSpans(_ record: RequestRecord) -> [Span] {
        let tag = record.isBackground ? [Span(backgroundTag, .dim, attributes: .bold)] : []
        guard let outcome = record.outcome else {
            if record.isCutOff { return tag + [Span("✂ CUT OFF", .error, attributes: .bold), Span(" its instance went away", .dim)] }
            let doing = record.revalidation != nil ? "revalidating" : record.lookup.map { "lookup \($0.verdict.rawValue)" } ?? "started"
            return tag + [Span("… ", .dim), Span(doing, .dim)]
        }
        let role = OutcomeStyle.role(outcome)
        var spans = tag + [Span("\(OutcomeStyle.glyph(outcome)) \(OutcomeStyle.label(outcome))", role, attributes: .bold)]
        if record.finished?.coalesced == true || record.coalescedWith != nil {
            spans.append(Span(" \(OutcomeStyle.coalescedGlyph)", .coalesced))
        }
        let reason = Escaped.text(record.reason)
        if !reason.isEmpty { spans.append(Span(" " + reason, .text)) }
        return spans
    }
}
