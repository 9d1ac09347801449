import HTTPTypes
import CacheStore
import CacheEvents
import SessionLog
import HTTPCaching

/// A small but complete session: every event kind, every outcome, sensitive headers, odd
/// characters. Times increase by 0.25 s per event unless a test changes them.
enum SampleSession {
    /// The kinds and request IDs, in publishing order.
    static let script: [(CacheEventKind, UInt64?)] = {
        var script: [(CacheEventKind, UInt64?)] = []
        let requestHeaders = HTTPFields([
            testField("Accept", value: "application/json"),
            testField("Authorization", value: "Bearer secret-token"),
            testField("cookie", value: "session=abc123"),
            testField("Proxy-Authorization", value: "Basic dXNlcjpwYXNz"),
        ])
        let responseHeaders = HTTPFields([
            testField("Content-Type", value: "application/json; charset=utf-8"),
            testField("Cache-Control", value: "max-age=60"),
            testField("ETag", value: "\"v1\""),
            testField("Set-Cookie", value: "tracking=xyz; HttpOnly"),
        ])
        func request(_ id: UInt64, _ url: String, method: String = "GET") -> (CacheEventKind, UInt64?) {
            (.requestStarted(RequestStarted(method: method, url: url, cacheKey: method == "GET" ? "GET \(url)" : "", policy: "protocol", headers: requestHeaders)), id)
        }
        let a = "https://example.com/a?lang=en&q=caf%C3%A9"
        let b = "https://example.com/b"
        let c = "https://example.com/ünïcode/\"quoted\""
        script.append((.storeStats(StoreStats(memoryUsed: 0, memoryCapacity: 1 << 20, diskUsed: 0, diskCapacity: 1 << 30, entryCount: 0)), nil))
        script.append((.entries(EntriesSnapshot(entries: [
            EntryInfo(entry: EntryRef(key: "GET https://example.com/old", variant: "accept=json"), tier: .disk, size: 512, ttl: nil, age: 12.5, etag: nil, lastModified: "Mon, 01 Jan 2024 00:00:00 GMT", hits: 3, idle: 4, status: 200)
        ])), nil))
        // 1: miss that stores.
        script.append(request(1, a))
        script.append((.lookup(Lookup(verdict: .miss, reason: "not in cache")), 1))
        script.append((.served(Served(source: .network, status: 200, bytes: 1000, outcome: .miss, reason: "not in cache", age: 0, ttl: 60, headers: responseHeaders)), 1))
        script.append((.stored(Stored(entry: EntryRef(key: "GET \(a)"), tier: .both, size: 1400, ttl: 60, etag: "\"v1\"", lastModified: nil, status: 200)), nil))
        script.append((.requestFinished(RequestFinished(status: 200, latency: 0.012345678901234567, bytesFromNetwork: 1000, bytesFromCache: 0, outcome: .miss, reason: "not in cache")), 1))
        // 2: fresh hit.
        script.append(request(2, a))
        script.append((.lookup(Lookup(verdict: .fresh, reason: "max-age=60", age: 5, ttl: 55)), 2))
        script.append((.served(Served(source: .cache, status: 200, bytes: 1000, outcome: .hit, reason: "max-age=60", age: 5, ttl: 55, headers: responseHeaders)), 2))
        script.append((.requestFinished(RequestFinished(status: 200, latency: 0.0004, bytesFromNetwork: 0, bytesFromCache: 1000, outcome: .hit, reason: "max-age=60")), 2))
        // 3: stale, revalidated with a 304.
        script.append(request(3, a))
        script.append((.lookup(Lookup(verdict: .stale, reason: "expired 3s ago", age: 63, ttl: -3)), 3))
        script.append((.revalidationSent(RevalidationSent(ifNoneMatch: "\"v1\"", ifModifiedSince: nil)), 3))
        script.append((.notModified(NotModified(freshened: 1, ttl: 60)), 3))
        script.append((.served(Served(source: .cache, status: 200, bytes: 1000, outcome: .revalidated, reason: "304 Not Modified", age: 0, ttl: 60, headers: responseHeaders)), 3))
        script.append((.requestFinished(RequestFinished(status: 200, latency: 0.05, bytesFromNetwork: 0, bytesFromCache: 1000, outcome: .revalidated, reason: "304 Not Modified")), 3))
        // 4: miss on b, coalesced follower 5, then modified.
        script.append(request(4, b))
        script.append(request(5, b))
        script.append((.lookup(Lookup(verdict: .miss, reason: "not in cache")), 4))
        script.append((.lookup(Lookup(verdict: .miss, reason: "not in cache")), 5))
        script.append((.coalesced(Coalesced(leaderID: 4)), 5))
        script.append((.served(Served(source: .network, status: 200, bytes: 250, outcome: .miss, reason: "not in cache", headers: HTTPFields([testField("Content-Type", value: "text/plain")]))), 4))
        script.append((.served(Served(source: .network, status: 200, bytes: 250, outcome: .miss, reason: "not in cache", headers: HTTPFields([testField("Content-Type", value: "text/plain")]))), 5))
        script.append((.requestFinished(RequestFinished(status: 200, latency: 0.2, bytesFromNetwork: 250, bytesFromCache: 0, outcome: .miss, reason: "not in cache")), 4))
        script.append((.requestFinished(RequestFinished(status: 200, latency: 0.21, bytesFromNetwork: 0, bytesFromCache: 0, outcome: .miss, reason: "not in cache", coalesced: true)), 5))
        script.append(request(6, a))
        script.append((.lookup(Lookup(verdict: .stale, reason: "expired 1s ago", age: 61, ttl: -1)), 6))
        script.append((.revalidationSent(RevalidationSent(ifNoneMatch: "\"v1\"", ifModifiedSince: "Mon, 01 Jan 2024 00:00:00 GMT", background: false)), 6))
        script.append((.modified(Modified(status: 200)), 6))
        script.append((.served(Served(source: .network, status: 200, bytes: 1200, outcome: .modified, reason: "200 after If-None-Match", age: 0, ttl: 60, headers: responseHeaders)), 6))
        script.append((.stored(Stored(entry: EntryRef(key: "GET \(a)"), tier: .memory, size: 1600, ttl: 60, etag: "\"v2\"", lastModified: nil, status: 200, age: 12.5)), nil))
        script.append((.requestFinished(RequestFinished(status: 200, latency: 0.1, bytesFromNetwork: 1200, bytesFromCache: 0, outcome: .modified, reason: "200 after If-None-Match")), 6))
        // 7: stale served (stale-while-revalidate); 8: bypass POST; 9: error.
        script.append(request(7, b))
        script.append((.lookup(Lookup(verdict: .stale, reason: "stale-while-revalidate=30", age: 70, ttl: -10)), 7))
        script.append((.served(Served(source: .cache, status: 200, bytes: 250, outcome: .stale, reason: "stale-while-revalidate=30", age: 70, ttl: -10)), 7))
        script.append((.requestFinished(RequestFinished(status: 200, latency: 0.001, bytesFromNetwork: 0, bytesFromCache: 250, outcome: .stale, reason: "stale-while-revalidate=30")), 7))
        script.append(request(8, b, method: "POST"))
        script.append((.lookup(Lookup(verdict: .bypass, reason: "method POST")), 8))
        script.append((.served(Served(source: .network, status: 201, bytes: 10, outcome: .bypass, reason: "method POST")), 8))
        script.append((.requestFinished(RequestFinished(status: 201, latency: 0.03, bytesFromNetwork: 10, bytesFromCache: 0, outcome: .bypass, reason: "method POST")), 8))
        script.append(request(9, c))
        script.append((.lookup(Lookup(verdict: .miss, reason: "not in cache")), 9))
        script.append((.error(ErrorInfo(message: "origin unreachable: connection refused\n\t(\\ retry later)")), 9))
        script.append((.requestFinished(RequestFinished(status: 0, latency: 1.5, bytesFromNetwork: 0, bytesFromCache: 0, outcome: .error, reason: "origin unreachable")), 9))
        // Store changes and commands.
        script.append((.promoted(EntryRef(key: "GET \(b)")), nil))
        script.append((.evicted(Evicted(entry: EntryRef(key: "GET \(b)"), reason: .capacity, tier: .memory, size: 300)), nil))
        script.append((.evicted(Evicted(entry: EntryRef(key: "GET \(b)"), reason: .expired, tier: .both, size: 300)), nil))
        script.append((.command(CommandInfo(name: "purge", key: "GET \(a)")), nil))
        script.append((.purged(Purged(scope: PurgeScope(word: "key", key: "GET \(a)", variant: nil, since: nil), count: 1)), nil))
        script.append((.evicted(Evicted(entry: EntryRef(key: "GET \(a)"), reason: .purged, tier: .both, size: 1600)), nil))
        script.append((.command(CommandInfo(name: "purgeAll")), nil))
        script.append((.purged(Purged(scope: .all, count: 0)), nil))
        script.append((.dropped(Dropped(count: 3)), nil))
        return script
    }()

    /// The script as events with seq from 1 and times 0.25 s apart.
    static var events: [CacheEvent] {
        script.enumerated().map { index, item in
            CacheEvent(seq: UInt64(index + 1), time: Double(index) * 0.25, requestID: item.1, kind: item.0)
        }
    }

    /// Publishes the script on `bus` and returns the events as published (as a subscriber
    /// of its own saw them).
    @discardableResult
    static func publish(on bus: EventBus) -> [CacheEvent] {
        let published = bus.subscribe(.lossless(bufferSize: script.count))
        defer { published.finish() }
        for (kind, requestID) in script { bus.publish(kind, requestID: requestID) }
        return published.take()
    }
}

/// A header field for test events; the names used are valid field names.
func testField(_ name: String, value: String) -> HTTPField {
    HTTPField(name: HTTPField.Name(name) ?? .init("X-Invalid-Name")!, value: value)
}
