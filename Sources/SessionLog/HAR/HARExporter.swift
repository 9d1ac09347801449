import HTTPTypes
import CacheEvents
import Foundation
import HTTPCaching
import CacheStore

/// Turns a session log into a HAR (`cachescope export FILE.jsonl --har OUT.har`): one entry
/// per finished request, with HAR's `cache` object and CacheScope's own fields.
///
/// - `cache.beforeRequest`: the entry as the lookup found it — an object for `fresh`/`stale`
///   verdicts, `null` for `miss`, left out when unknown (e.g. `bypass` with no entry seen).
/// - `cache.afterRequest`: the entry after the request — an object if the key is in the cache
///   when the request finishes (stored, served or freshened by a 304), else `null`.
///   `expires` = time stored/freshened + TTL, `lastAccess` = last store/serve/304,
///   `eTag` = the stored ETag (or the one revalidated with), `hitCount` = times served from
///   the cache since stored.
/// - `_cacheStatus` (outcome word), `_cacheReason`, `_ttl` and `_age` (seconds, from the
///   `served` event, else the lookup).
/// - Request headers come from `requestStarted`, response headers from `served` (as logged:
///   redacted if the log was). Bodies are not in logs, so `content` has sizes only.
///
/// Times: `startedDateTime` is the header's `startedAt` plus the event time (the Unix epoch
/// if the header has no `startedAt`); `time` and `timings.wait` are the request's latency.
public struct HARExporter: Sendable {
    /// The `creator` written. Default ``HARCreator/cachescope``.
    public var creator: HARCreator

    /// Creates an exporter.
    public init(creator: HARCreator = .cachescope) {
        self.creator = creator
    }

    /// The HAR for a log's finished requests.
    public func export(_ log: SessionLog) -> HARExport {
        var run = ExportRun(origin: log.header.startedAt ?? Date(timeIntervalSince1970: 0))
        for event in log.events { run.apply(event) }
        let entries = run.finished.sorted { ($0.start, $0.order) < ($1.start, $1.order) }.map(\.entry)
        let archive = HARArchive(log: HARLog(creator: creator, entries: entries))
        // A background refresh left unfinished is no request of the app's either.
        let unfinished = run.open.values.count { $0.started.policy != RequestStarted.backgroundPolicy }
        return HARExport(archive: archive, requestsWithoutStart: run.withoutStart, unfinishedRequests: unfinished)
    }
}

/// An exported HAR and what could not go into it.
public struct HARExport: Sendable, Hashable {
    /// The archive.
    public let archive: HARArchive
    /// Finished requests whose `requestStarted` is not in the log (it began mid-request):
    /// without method and URL they cannot be entries.
    public let requestsWithoutStart: Int
    /// Requests started but not finished when the log ended.
    public let unfinishedRequests: Int
}

/// One pass over a log's events, tracking requests in flight and cache entries.
private struct ExportRun {
    struct OpenRequest {
        var order: Int
        var start: Double
        var started: RequestStarted
        var lookup: Lookup?
        var before: HARCache.State = .unknown
        var served: Served?
    }

    let origin: Date
    var tracker = CacheEntryTracker()
    var open: [UInt64: OpenRequest] = [:]
    var finished: [(start: Double, order: Int, entry: HAREntry)] = []
    var withoutStart = 0
    var nextOrder = 0

    init(origin: Date) { self.origin = origin }

    mutating func apply(_ event: CacheEvent) {
        let id = event.requestID
        switch event.kind {
        case .requestStarted(let started):
            guard let id else { return }
            open[id] = OpenRequest(order: nextOrder, start: event.time, started: started)
            nextOrder += 1
        case .lookup(let lookup):
            guard let id, var request = open[id] else { return }
            request.lookup = lookup
            request.before = beforeState(key: request.started.cacheKey, lookup: lookup, at: event.time)
            open[id] = request
        case .revalidationSent(let sent):
            guard let id, let request = open[id], let etag = sent.ifNoneMatch, !request.started.cacheKey.isEmpty,
                tracker[request.started.cacheKey]?.etag == nil
            else { return }
            tracker.discovered(key: request.started.cacheKey, etag: etag, ttl: nil, at: event.time)
            if case .cached(var entry) = request.before {
                entry.eTag = etag
                open[id]?.before = .cached(entry)
            }
        case .notModified(let notModified):
            guard let id, let request = open[id] else { return }
            tracker.freshened(key: request.started.cacheKey, ttl: notModified.ttl, at: event.time)
        case .served(let served):
            guard let id, var request = open[id] else { return }
            request.served = served
            open[id] = request
            if served.source == .cache, !request.started.cacheKey.isEmpty {
                tracker.served(key: request.started.cacheKey, at: event.time)
            }
        case .stored(let stored):
            tracker.stored(stored, at: event.time)
        case .evicted(let evicted):
            if evicted.tier == .both { tracker.removed(key: evicted.entry.key) }
        case .purged(let purged):
            switch purged.scope {
            case .all: tracker.removeAll()
            case .key(let key): tracker.removed(key: key.description)
            case .entry, .expired, .since, .tag, .prefix, .filter: break  // the evictions that follow name the entries
            }
        case .requestFinished(let done):
            guard let id else { return }
            guard let request = open.removeValue(forKey: id) else {
                withoutStart += 1
                return
            }
            // The cache's own refresh (stale-while-revalidate) is no request of the app's: its
            // effect on the entry is tracked above, and a HAR replay makes its own refreshes.
            guard !done.background else { return }
            finished.append((request.start, request.order, entry(for: request, finished: done, at: event.time)))
        default:
            break
        }
    }

    // MARK: Building entries

    private mutating func beforeState(key: String, lookup: Lookup, at time: Double) -> HARCache.State {
        switch lookup.verdict {
        case .fresh, .stale:
            tracker.discovered(key: key, etag: nil, ttl: lookup.ttl, at: time)
            guard let entry = tracker[key] else { return .unknown }
            let expires = lookup.ttl.map { time + $0 } ?? entry.expires
            return .cached(cacheEntry(entry, expires: expires))
        case .miss:
            return .notCached
        case .bypass:
            return tracker[key].map { .cached(cacheEntry($0, expires: $0.expires)) } ?? .unknown
        }
    }

    private func entry(for request: OpenRequest, finished: RequestFinished, at time: Double) -> HAREntry {
        let started = request.started
        let served = request.served
        let milliseconds = max(finished.latency, 0) * 1000
        let responseHeaders = (served?.headers ?? [:]).map { HARNameValue(name: $0.name.rawName, value: $0.value) }
        let status = finished.status != 0 ? finished.status : served?.status ?? 0
        let after: HARCache.State = started.cacheKey.isEmpty
            ? .unknown : tracker[started.cacheKey].map { .cached(cacheEntry($0, expires: $0.expires)) } ?? .notCached
        return HAREntry(
            startedDateTime: timestamp(request.start),
            time: milliseconds,
            request: HARRequest(
                method: started.method, url: started.url,
                headers: started.headers.map { HARNameValue(name: $0.name.rawName, value: $0.value) },
                queryString: Self.queryItems(of: started.url),
                headersSize: -1, bodySize: ["GET", "HEAD"].contains(started.method) ? 0 : -1),
            response: HARResponse(
                status: status, statusText: HTTPStatusText.phrase(for: status),
                headers: responseHeaders,
                content: HARContent(size: served?.bytes ?? 0, mimeType: Self.field(.contentType, in: served?.headers) ?? ""),
                redirectURL: Self.field(.location, in: served?.headers) ?? "",
                headersSize: -1, bodySize: finished.bytesFromNetwork),
            cache: HARCache(beforeRequest: request.before, afterRequest: after),
            timings: HARTimings(blocked: -1, dns: -1, connect: -1, send: 0, wait: milliseconds, receive: 0, ssl: -1),
            cacheStatus: finished.outcome.rawValue, cacheReason: finished.reason,
            ttl: served?.ttl ?? request.lookup?.ttl, age: served?.age ?? request.lookup?.age)
    }

    private func cacheEntry(_ entry: CacheEntryTracker.Entry, expires: Double?) -> HARCacheEntry {
        HARCacheEntry(
            // Left out past the year 9999 (an `Expires` that far ahead), which no timestamp names.
            expires: expires.map { origin.addingTimeInterval($0) }.flatMap { ISO8601Timestamp.canWrite($0) ? ISO8601Timestamp.string(from: $0) : nil },
            lastAccess: timestamp(entry.lastAccess), eTag: entry.etag ?? "",
            hitCount: entry.hitCount)
    }

    private func timestamp(_ sessionTime: Double) -> String {
        ISO8601Timestamp.string(from: origin.addingTimeInterval(sessionTime))
    }

    private static func field(_ name: HTTPField.Name, in fields: HTTPFields?) -> String? {
        fields?[name]
    }

    private static func queryItems(of url: String) -> [HARNameValue] {
        guard let items = URLComponents(string: url)?.queryItems else { return [] }
        return items.map { HARNameValue(name: $0.name, value: $0.value ?? "") }
    }
}
