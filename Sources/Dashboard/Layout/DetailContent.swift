import HTTPTypes
import CacheEvents
import SessionLog
import HTTPCaching
import TerminalUI
import CacheStore

/// The detail pane: a request's (or an entry's) headers, its Cache-Control in plain words, and
/// the decision with its reason — lookup verdict, revalidation, the origin's 304 or 200, where
/// it was stored and for how long. Every header value is escaped.
enum DetailContent {
    static let labelWidth = 16

    static func lines(_ target: DetailTarget, state: DashboardState, width: Int, now: Double) -> [[Span]] {
        let model = state.shown
        switch target {
        case .request(let serial):
            guard let record = model.requests[serial: serial] else {
                return [[Span("This request is no longer kept: the dashboard keeps the newest \(Format.count(model.requests.capacity)).", .dim)]]
            }
            return requestLines(record, width: width)
        case .entry(let id):
            var lines: [[Span]]
            if let entry = model.entries[id] {
                lines = entryLines(entry, width: width, now: now)
            } else {
                lines = TextViews.wrap([Span(Escaped.text(id.ref.key), .title, attributes: .bold)], width: width, indent: 2)
                lines.append([Span("  no longer stored (purged or evicted)", .warning)])
            }
            if let record = latestRequest(for: id.ref.key, instance: id.instance, in: model.requests) {
                lines.append([])
                lines.append(TextViews.heading("Latest request for this key"))
                lines += requestLines(record, width: width)
            }
            return lines
        }
    }

    // MARK: Entry

    static func entryLines(_ entry: EntryRecord, width: Int, now: Double) -> [[Span]] {
        var lines = TextViews.wrap([Span(Escaped.text(entry.ref.key), .title, attributes: .bold)], width: width, indent: 2)
        func field(_ label: String, _ value: [Span]) {
            lines += TextViews.field(label, value, labelWidth: labelWidth, width: width)
        }
        if !entry.ref.variant.isEmpty { field("variant", [Span(Escaped.text(entry.ref.variant))]) }
        if !entry.instanceName.isEmpty { field("instance", [Span(Escaped.text(entry.instanceName))]) }
        let tier = switch entry.tier {
        case .memory: "memory"
        case .disk: "disk"
        case .both: "memory and disk"
        }
        field("stored in", [Span(tier)])
        field("size", [Span(Format.bytes(entry.size))])
        field("status", [Span(String(entry.status))])
        field("age", [Span(Format.duration(entry.age(at: now)))])
        if let ttl = entry.ttl(at: now) {
            let words = ttl > 0 ? "fresh for \(Format.duration(ttl)) more" : "stale for \(Format.staleness(ttl)) (revalidated on next use)"
            field("freshness", EntriesView.ttlSpans(entry, now: now) + [Span("  " + words, .dim)])
        } else {
            field("freshness", [Span("unknown", .dim)])
        }
        field("ETag", [Span(entry.etag.map(Escaped.text) ?? "none", entry.etag == nil ? .dim : .text)])
        field("Last-Modified", [Span(entry.lastModified.map(Escaped.text) ?? "none", entry.lastModified == nil ? .dim : .text)])
        field("hits", [Span(Format.count(entry.hits))])
        field("last hit", [Span(entry.lastAccess.map { Format.duration(max(0, now - $0)) + " ago" } ?? "never")])
        return lines
    }

    static func latestRequest(for key: String, instance: UInt16 = 0, in log: RequestLog) -> RequestRecord? {
        guard let newest = log.newestSerial, let oldest = log.oldestSerial else { return nil }
        for serial in stride(from: newest, through: oldest, by: -1) {
            if let record = log[serial: serial], record.cacheKey == key, record.instance == instance { return record }
        }
        return nil
    }

    // MARK: Request

    static func requestLines(_ record: RequestRecord, width: Int) -> [[Span]] {
        var lines = TextViews.wrap(
            [Span(Escaped.text(record.method) + " ", .title, attributes: .bold), Span(Escaped.text(record.url), .title, attributes: .bold)],
            width: width, indent: 2)
        func field(_ label: String, _ value: [Span]) {
            lines += TextViews.field(label, value, labelWidth: labelWidth, width: width)
        }
        field("request", [Span("#\(record.id) at \(Format.eventTime(record.started)), policy \(Escaped.text(record.policy))")])
        if !record.instanceName.isEmpty { field("instance", [Span(Escaped.text(record.instanceName))]) }
        field("cache key", [Span(record.cacheKey.isEmpty ? "none (not cacheable by method)" : Escaped.text(record.cacheKey))])

        lines.append(TextViews.heading("Decision"))
        for (label, value) in decision(record) { field(label, value) }

        for (title, headers) in [("Response", record.served?.headers ?? [:]), ("Request", record.requestHeaders)] {
            let cacheControl = headers[values: .cacheControl]
            guard !cacheControl.isEmpty else { continue }
            lines.append(TextViews.heading("\(title) Cache-Control in plain words"))
            for explanation in CacheControl(cacheControl.joined(separator: ", ")).explanations {
                lines += TextViews.wrap([Span("  " + Escaped.text(explanation))], width: width, indent: 4)
            }
        }
        lines.append(TextViews.heading("Request headers"))
        lines += headerLines(record.requestHeaders, width: width)
        lines.append(TextViews.heading("Response headers"))
        lines += record.served.map { headerLines($0.headers, width: width) } ?? [[Span("  (no response yet)", .dim)]]
        return lines
    }

    /// The decision, step by step, as label–value pairs.
    static func decision(_ record: RequestRecord) -> [(String, [Span])] {
        var steps: [(String, [Span])] = []
        if let lookup = record.lookup {
            var text = "\(lookup.verdict.rawValue): \(Escaped.text(lookup.reason))"
            var details: [String] = []
            if let age = lookup.age { details.append("age \(Format.duration(age))") }
            if let ttl = lookup.ttl { details.append(ttl >= 0 ? "\(Format.duration(ttl)) left" : "stale by \(Format.staleness(ttl))") }
            if !details.isEmpty { text += " (" + details.joined(separator: ", ") + ")" }
            steps.append(("lookup", [Span(text)]))
        }
        if let sent = record.revalidation {
            var validators: [String] = []
            if let etag = sent.ifNoneMatch { validators.append("If-None-Match: \(Escaped.text(etag))") }
            if let date = sent.ifModifiedSince { validators.append("If-Modified-Since: \(Escaped.text(date))") }
            let text = (validators.isEmpty ? "conditional request" : validators.joined(separator: ", "))
                + (sent.background ? " (in the background, stale copy served)" : "")
            steps.append(("revalidation", [Span(text)]))
        }
        if let notModified = record.notModified {
            let ttl = notModified.ttl.map { ", fresh for \(Format.duration($0))" } ?? ""
            let count = notModified.freshened == 1 ? "1 stored response" : "\(notModified.freshened) stored responses"
            steps.append(("origin", [Span("304 Not Modified", .revalidated), Span(": \(count) freshened\(ttl)")]))
        } else if let status = record.modifiedStatus {
            steps.append(("origin", [Span("\(status)", .modified), Span(": a new response replaced the stored one")]))
        }
        if let leader = record.coalescedWith {
            steps.append(("coalesced", [Span("shared request #\(leader)'s origin fetch", .coalesced)]))
        }
        if let served = record.served {
            let source = served.source == .cache ? "from the cache" : "from the network"
            steps.append(("served", [Span("\(source), status \(served.status), \(Format.bytes(served.bytes)): ")]
                + RequestsView.outcomeSpans(record)))
        }
        if let stored = record.stored {
            let tier = switch stored.tier {
            case .memory: "memory"
            case .disk: "disk"
            case .both: "memory and disk"
            }
            let ttl = stored.ttl.map { ", fresh for \(Format.duration($0))" } ?? ""
            steps.append(("stored", [Span("in \(tier), \(Format.bytes(stored.size))\(ttl)")]))
        }
        if let finished = record.finished {
            let status = finished.status > 0 ? "\(finished.status)" : "no response"
            steps.append(("finished", [Span(
                "\(status) in \(Format.latency(finished.latency)); \(Format.bytes(finished.bytesFromNetwork)) from the network, "
                    + "\(Format.bytes(finished.bytesFromCache)) from the cache")]))
        } else if let cutOff = record.cutOffAt {
            steps.append(("finished", [Span(
                "never seen: cut off at \(Format.clock(cutOff)), when its instance went away", .error)]))
        } else {
            steps.append(("finished", [Span("not yet (in flight)", .dim)]))
        }
        if let error = record.errorMessage {
            steps.append(("error", [Span(Escaped.text(error), .error)]))
        }
        return steps
    }

    static func headerLines(_ headers: HTTPFields, width: Int) -> [[Span]] {
        guard !headers.isEmpty else { return [[Span("  (none)", .dim)]] }
        var lines: [[Span]] = []
        for header in headers {
            lines += TextViews.wrap(
                [Span("  " + Escaped.text(header.name.rawName) + ": ", .text, attributes: .bold), Span(Escaped.text(header.value))],
                width: width, indent: 6)
        }
        return lines
    }
}
