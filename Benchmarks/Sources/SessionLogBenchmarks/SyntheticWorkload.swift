import BenchmarkSupport
import HTTPTypes
import Foundation
import CacheEvents
import CacheStore
import DemoOrigin
import SessionLog
import HTTPCaching

/// A deterministic stream of realistic caching-client events: eight requests in flight at a
/// time over 2,000 URLs (Zipf-like popularity), with the outcome mix of a warm cache — hits,
/// misses that store, revalidations, stale serves, bypassed POSTs, coalesced and failed
/// requests — realistic request and response headers (a 304's too, which what-if replay
/// needs), store statistics every second and evictions. About 13,000 events per simulated second.
struct SyntheticWorkload {
    private var random: SplitMix64
    private let urls: [String]
    private var flight = InFlightRequests()
    private var dateSecond = -1
    private var dateText = ""

    init(seed: UInt64 = 42) {
        random = SplitMix64(seed: seed)
        let hosts = ["api.example.com", "cdn.example.com", "images.example.net", "shop.example.org"]
        urls = (0..<2000).map { index in
            let host = hosts[index % hosts.count]
            switch index % 4 {
            case 0: return "https://\(host)/v1/items/\(index)?fields=summary&lang=en"
            case 1: return "https://\(host)/assets/app.\(index).js"
            case 2: return "https://\(host)/img/products/\(index)/large.webp"
            default: return "https://\(host)/v2/search?q=item+\(index)&page=1"
            }
        }
    }

    /// Calls `body` with `count` events in order.
    mutating func generate(events count: Int, _ body: (CacheEvent) -> Void) {
        var produced = 0
        while produced < count {
            flight.time += -log(Double.random(in: 0.000_001..<1, using: &random)) / 13_000
            if let second = flight.newSecond() {
                body(flight.event(.storeStats(StoreStats(
                    memoryUsed: 40_000_000 + Int(random.next() % 8_000_000), memoryCapacity: 64 << 20,
                    diskUsed: 300_000_000 + second * 1000, diskCapacity: 1 << 30, entryCount: 1800 + second % 200))))
                produced += 1
                continue
            }
            if flight.wantsRequest(using: &random) {
                startRequest()
            }
            let event = flight.nextEvent(using: &random)
            body(event)
            produced += 1
            if case .stored = event.kind, random.next() % 20 == 0, produced < count {
                let victim = urls[Int(random.next() % UInt64(urls.count))]
                body(flight.event(.evicted(Evicted(entry: EntryRef(key: "GET " + victim), reason: .capacity, tier: random.next() % 3 == 0 ? .memory : .both, size: 20_000))))
                produced += 1
            }
        }
    }

    // MARK: Requests

    private mutating func startRequest() {
        let id = flight.newID()
        let rank = Int(Double(urls.count) * pow(Double.random(in: 0..<1, using: &random), 2.5))
        let url = urls[min(rank, urls.count - 1)]
        let roll = random.next() % 100
        let bytes = 2_000 + Int(random.next() % 60_000)
        let etag = "\"v\(random.next() % 5)-\(rank)\""
        let age = Double(random.next() % 300)
        let method = roll >= 92 && roll < 97 ? "POST" : "GET"
        var script: [CacheEventKind] = [
            .requestStarted(RequestStarted(method: method, url: url, cacheKey: method == "GET" ? "GET \(url)" : "", policy: "protocol", headers: requestHeaders()))
        ]
        let latency = 0.0005 + Double(random.next() % 100_000) / 1_000_000
        func finish(_ outcome: CacheOutcome, _ reason: String, network: Int, cache: Int, status: Int = 200, coalesced: Bool = false) -> CacheEventKind {
            .requestFinished(RequestFinished(status: status, latency: latency, bytesFromNetwork: network, bytesFromCache: cache, outcome: outcome, reason: reason, coalesced: coalesced))
        }
        switch roll {
        case 0..<55:
            script += [
                .lookup(Lookup(verdict: .fresh, reason: "max-age=300", age: age, ttl: 300 - age)),
                served(.cache, bytes, .hit, "max-age=300", age: age, etag: etag),
                finish(.hit, "max-age=300", network: 0, cache: bytes),
            ]
        case 55..<72:
            script += [
                .lookup(Lookup(verdict: .miss, reason: "not in cache")),
                served(.network, bytes, .miss, "not in cache", age: 0, etag: etag),
                .stored(Stored(entry: EntryRef(key: "GET \(url)"), tier: .both, size: bytes + 400, ttl: 300, etag: etag, lastModified: nil, status: 200)),
                finish(.miss, "not in cache", network: bytes, cache: 0),
            ]
        case 72..<82:
            script += [
                .lookup(Lookup(verdict: .stale, reason: "expired \(Int(age) % 30 + 1)s ago", age: 300 + age, ttl: -age)),
                .revalidationSent(RevalidationSent(ifNoneMatch: etag, ifModifiedSince: nil)),
                .notModified(NotModified(freshened: 1, ttl: 300, headers: notModifiedHeaders(etag: etag))),
                served(.cache, bytes, .revalidated, "304 Not Modified", age: 0, etag: etag),
                finish(.revalidated, "304 Not Modified", network: 0, cache: bytes),
            ]
        case 82..<85:
            script += [
                .lookup(Lookup(verdict: .stale, reason: "expired 12s ago", age: 312, ttl: -12)),
                .revalidationSent(RevalidationSent(ifNoneMatch: etag, ifModifiedSince: nil)),
                .modified(Modified(status: 200)),
                served(.network, bytes, .modified, "200 after If-None-Match", age: 0, etag: etag),
                .stored(Stored(entry: EntryRef(key: "GET \(url)"), tier: .both, size: bytes + 400, ttl: 300, etag: etag, lastModified: nil, status: 200)),
                finish(.modified, "200 after If-None-Match", network: bytes, cache: 0),
            ]
        case 85..<88:
            script += [
                .lookup(Lookup(verdict: .stale, reason: "stale-while-revalidate=60", age: 320, ttl: -20)),
                served(.cache, bytes, .stale, "stale-while-revalidate=60", age: 320, etag: etag),
                finish(.stale, "stale-while-revalidate=60", network: 0, cache: bytes),
            ]
        case 88..<92:
            script += [
                .lookup(Lookup(verdict: .miss, reason: "not in cache")),
                .coalesced(Coalesced(leaderID: max(1, id - 1))),
                served(.network, bytes, .miss, "not in cache", age: 0, etag: etag),
                finish(.miss, "not in cache", network: 0, cache: 0, coalesced: true),
            ]
        case 92..<97:
            script += [
                .lookup(Lookup(verdict: .bypass, reason: "method POST is not cacheable")),
                served(.network, 300, .bypass, "method POST is not cacheable", age: 0, etag: etag),
                finish(.bypass, "method POST is not cacheable", network: 300, cache: 0),
            ]
        default:
            script += [
                .lookup(Lookup(verdict: .miss, reason: "not in cache")),
                .error(ErrorInfo(message: "origin unreachable: connection refused (\(url))")),
                finish(.error, "origin unreachable: connection refused", network: 0, cache: 0, status: 0),
            ]
        }
        flight.start(id, script: script)
    }

    private mutating func requestHeaders() -> HTTPFields {
        var fields: HTTPFields = [
            .accept: "application/json, text/plain, */*",
            .userAgent: "CacheScopeDemo/0.1 (workload; linux)",
            .acceptLanguage: "en-US,en;q=0.9",
        ]
        if random.next() % 10 < 3 {
            fields.append(HTTPField(name: .authorization, value: "Bearer eyJhbGciOiJIUzI1NiJ9.\(random.next() % 1000)"))
        }
        return fields
    }

    private mutating func served(_ source: ServedSource, _ bytes: Int, _ outcome: CacheOutcome, _ reason: String, age: Double, etag: String) -> CacheEventKind {
        .served(Served(
            source: source, status: 200, bytes: bytes, outcome: outcome, reason: reason, age: age, ttl: 300 - age,
            headers: [
                .contentType: "application/json; charset=utf-8",
                .cacheControl: "public, max-age=300, stale-while-revalidate=60",
                .eTag: etag,
                .date: httpDate(),
                .age: String(Int(age)),
                .contentLength: String(bytes),
            ]))
    }

    /// A 304's own header fields, as the recorder keeps them (what-if replay answers with them).
    private mutating func notModifiedHeaders(etag: String) -> HTTPFields {
        [.date: httpDate(), .eTag: etag, .cacheControl: "public, max-age=300, stale-while-revalidate=60"]
    }

    /// An HTTP date for the simulated time (changes once a second, like a real origin's).
    private mutating func httpDate() -> String {
        let second = Int(flight.time)
        if second != dateSecond {
            dateSecond = second
            let clock = 9 * 3600 + 14 * 60 + second
            let text = [clock / 3600 % 24, clock / 60 % 60, clock % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }.joined(separator: ":")
            dateText = "Sat, 22 Nov 2025 \(text) GMT"
        }
        return dateText
    }
}
