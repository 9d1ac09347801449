import HTTPTypes
import CacheStore
import CacheEvents
import SessionLog
import Dashboard
import HTTPCaching

/// A fixed session that exercises every outcome, the store events, a hostile URL and wide
/// Unicode: the input of the layout snapshots (with ``now`` as the clock).
enum SampleSession {
    static let origin = "http://127.0.0.1:8080"
    static let now = 12.0

    /// Builds events with increasing `seq`.
    struct Builder {
        var events: [CacheEvent] = []

        mutating func add(_ time: Double, _ request: UInt64? = nil, _ kind: CacheEventKind) {
            events.append(CacheEvent(seq: UInt64(events.count + 1), time: time, requestID: request, kind: kind))
        }

        /// A whole request: started, lookup, optional middle events, served, finished.
        mutating func request(
            _ id: UInt64, at time: Double, method: String = "GET", path: String, headers: HTTPFields = [:],
            verdict: LookupVerdict, lookupReason: String, middle: [CacheEventKind] = [],
            source: ServedSource, status: Int, bytes: Int, outcome: CacheOutcome, reason: String,
            latency: Double, age: Double? = nil, ttl: Double? = nil, lookupAge: Double? = nil, lookupTTL: Double? = nil,
            responseHeaders: HTTPFields = [:],
            coalesced: Bool = false, cacheable: Bool = true
        ) {
            let url = path.hasPrefix("http") ? path : SampleSession.origin + path
            add(time, id, .requestStarted(RequestStarted(
                method: method, url: url, cacheKey: cacheable ? "\(method) \(url)" : "", policy: "protocol", headers: headers)))
            let fresh = verdict == .fresh
            add(time + 0.0001, id, .lookup(Lookup(
                verdict: verdict, reason: lookupReason, age: lookupAge ?? (fresh ? age : nil), ttl: lookupTTL ?? (fresh ? ttl : nil))))
            for kind in middle { add(time + latency / 2, id, kind) }
            add(time + latency, id, .served(Served(
                source: source, status: status, bytes: bytes, outcome: outcome, reason: reason, age: age, ttl: ttl,
                headers: responseHeaders)))
            add(time + latency, id, .requestFinished(RequestFinished(
                status: status, latency: latency, bytesFromNetwork: source == .network ? bytes : 0,
                bytesFromCache: source == .cache ? bytes : 0, outcome: outcome, reason: reason, coalesced: coalesced)))
        }
    }

    static func key(_ path: String) -> String { "GET " + origin + path }

    static let events: [CacheEvent] = {
        var b = Builder()
        b.add(0, nil, .storeStats(StoreStats(memoryUsed: 4 << 20, memoryCapacity: 16 << 20, diskUsed: 12 << 20,
                                             diskCapacity: 256 << 20, entryCount: 3)))
        b.add(0, nil, .entries(EntriesSnapshot(entries: [
            EntryInfo(entry: EntryRef(key: key("/max-age/60?id=1")), tier: .memory, size: 2048, ttl: 50, age: 10,
                      etag: "\"v1\"", lastModified: nil, hits: 3, idle: 5, status: 200),
            EntryInfo(entry: EntryRef(key: key("/immutable/app.js")), tier: .both, size: 40960, ttl: 86_000, age: 400,
                      etag: nil, lastModified: "Tue, 01 Nov 2026 10:00:00 GMT", hits: 12, idle: 1, status: 200),
            EntryInfo(entry: EntryRef(key: key("/no-cache?id=3")), tier: .disk, size: 1024, ttl: 0, age: 30,
                      etag: "\"n3\"", lastModified: nil, hits: 0, idle: 30, status: 200),
        ])))
        b.request(1, at: 1, path: "/max-age/60?id=1", verdict: .fresh, lookupReason: "max-age=60", source: .cache,
                  status: 200, bytes: 2048, outcome: .hit, reason: "max-age=60", latency: 0.0004, age: 11, ttl: 49,
                  responseHeaders: HTTPFields([testField("Cache-Control", value: "max-age=60"), testField("ETag", value: "\"v1\""),
                                    testField("Age", value: "11")]))
        b.request(2, at: 2, path: "/no-store?id=2", verdict: .miss, lookupReason: "not in cache", source: .network,
                  status: 200, bytes: 512, outcome: .miss, reason: "no-store", latency: 0.012,
                  responseHeaders: HTTPFields([testField("Cache-Control", value: "no-store")]))
        b.request(3, at: 3, path: "/no-cache?id=3", verdict: .stale, lookupReason: "no-cache: revalidate before use",
                  middle: [.revalidationSent(RevalidationSent(ifNoneMatch: "\"n3\"", ifModifiedSince: nil)),
                           .notModified(NotModified(freshened: 1, ttl: 0))],
                  source: .cache, status: 200, bytes: 1024, outcome: .revalidated, reason: "304 (no-cache)", latency: 0.008,
                  age: 0, ttl: 0, lookupAge: 33, lookupTTL: -3, responseHeaders: HTTPFields([testField("Cache-Control", value: "no-cache"),
                                                   testField("ETag", value: "\"n3\"")]))
        b.request(4, at: 4, path: "/rotating", verdict: .stale, lookupReason: "expired 2s ago",
                  middle: [.revalidationSent(RevalidationSent(ifNoneMatch: "\"r1\"", ifModifiedSince: nil)),
                           .modified(Modified(status: 200)),
                           .stored(Stored(entry: EntryRef(key: key("/rotating")), tier: .both, size: 700, ttl: 5,
                                          etag: "\"r2\"", lastModified: nil, status: 200))],
                  source: .network, status: 200, bytes: 700, outcome: .modified, reason: "200 after expired 2s ago",
                  latency: 0.015, age: 0, ttl: 5, lookupAge: 7, lookupTTL: -2,
                  responseHeaders: HTTPFields([testField("Cache-Control", value: "max-age=5"), testField("ETag", value: "\"r2\"")]))
        b.request(5, at: 5, path: "/swr?id=5", verdict: .stale, lookupReason: "stale-while-revalidate", source: .cache,
                  status: 200, bytes: 900, outcome: .stale, reason: "stale-while-revalidate", latency: 0.0006, age: 12, ttl: -2)
        b.request(6, at: 6, method: "POST", path: "/items/7", verdict: .bypass, lookupReason: "method POST is not cached",
                  source: .network, status: 201, bytes: 64, outcome: .bypass, reason: "method POST is not cached",
                  latency: 0.02, cacheable: false)
        b.request(7, at: 6.5, path: "/max-age/60?id=9", verdict: .miss, lookupReason: "not in cache",
                  middle: [.coalesced(Coalesced(leaderID: 6))], source: .network, status: 200, bytes: 2048, outcome: .miss,
                  reason: "not in cache", latency: 0.03, coalesced: true)
        // An origin failure with nothing stored.
        b.add(7, 8, .requestStarted(RequestStarted(method: "GET", url: origin + "/status/503", cacheKey: key("/status/503"),
                                                   policy: "protocol", headers: [:])))
        b.add(7.0001, 8, .lookup(Lookup(verdict: .miss, reason: "not in cache")))
        b.add(7.2, 8, .error(ErrorInfo(message: "origin unreachable: connection refused (127.0.0.1:8080)")))
        b.add(7.2, 8, .requestFinished(RequestFinished(status: 0, latency: 0.2, bytesFromNetwork: 0, bytesFromCache: 0,
                                                      outcome: .error, reason: "origin unreachable")))
        // A hostile URL with an escape sequence, and wide characters.
        b.request(9, at: 8, path: "/evil\u{1B}[2J?q=東京", verdict: .miss, lookupReason: "not in cache",
                  middle: [.stored(Stored(entry: EntryRef(key: key("/evil\u{1B}[2J?q=東京")), tier: .memory, size: 300, ttl: 30,
                                          etag: nil, lastModified: "Wed, 02 Nov 2026 08:00:00 GMT", status: 200))],
                  source: .network, status: 200, bytes: 300, outcome: .miss, reason: "not in cache", latency: 0.004, age: 0, ttl: 30,
                  responseHeaders: HTTPFields([testField("Cache-Control", value: "max-age=30"),
                                    testField("X-Evil", value: "a\u{1B}]0;pwned\u{07}b")]))
        b.request(10, at: 9, path: "/vary/lang?id=1", headers: HTTPFields([testField("Accept-Language", value: "fr")]),
                  verdict: .miss, lookupReason: "not in cache",
                  middle: [.stored(Stored(entry: EntryRef(key: key("/vary/lang?id=1"), variant: "accept-language=\"fr\""),
                                          tier: .memory, size: 1500, ttl: 120, etag: "\"fr1\"", lastModified: nil, status: 200))],
                  source: .network, status: 200, bytes: 1500, outcome: .miss, reason: "not in cache", latency: 0.009,
                  age: 0, ttl: 120,
                  responseHeaders: HTTPFields([testField("Cache-Control", value: "public, max-age=120"),
                                    testField("Vary", value: "Accept-Language")]))
        b.add(9.5, nil, .evicted(Evicted(entry: EntryRef(key: key("/no-cache?id=3")), reason: .capacity, tier: .both, size: 1024)))
        b.add(10, nil, .storeStats(StoreStats(memoryUsed: 6 << 20, memoryCapacity: 16 << 20, diskUsed: 13 << 20,
                                              diskCapacity: 256 << 20, entryCount: 5)))
        // Still in flight at "now".
        b.add(11, 11, .requestStarted(RequestStarted(method: "GET", url: origin + "/slow?ms=2000", cacheKey: key("/slow?ms=2000"),
                                                     policy: "protocol", headers: [:])))
        b.add(11.0001, 11, .lookup(Lookup(verdict: .miss, reason: "not in cache")))
        return b.events
    }()

    /// Two more requests after ``now``, continuing ``events``' sequence numbers.
    static let laterEvents: [CacheEvent] = {
        var b = Builder()
        b.events = events
        b.request(12, at: 12.5, path: "/max-age/60?id=1", verdict: .fresh, lookupReason: "max-age=60", source: .cache,
                  status: 200, bytes: 2048, outcome: .hit, reason: "max-age=60", latency: 0.0003, age: 22, ttl: 38)
        b.request(13, at: 13, path: "/no-store?id=2", verdict: .miss, lookupReason: "not in cache", source: .network,
                  status: 200, bytes: 512, outcome: .miss, reason: "no-store", latency: 0.01)
        return Array(b.events.dropFirst(events.count))
    }()

    /// The session folded into a fresh live state.
    static func state(mode: DashboardMode = .live) -> DashboardState {
        var state = DashboardState(mode: mode)
        for event in events { state.apply(event) }
        return state
    }
}

/// A header field for test events; the names used are valid field names.
func testField(_ name: String, value: String) -> HTTPField {
    HTTPField(name: HTTPField.Name(name) ?? .init("X-Invalid-Name")!, value: value)
}
