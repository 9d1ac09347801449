import BenchmarkSupport
import HTTPTypes
import CacheEvents
import CacheStore
import DemoOrigin
import Foundation
import HTTPCaching

/// A deterministic stream of caching-client events for the dashboard benchmarks: up to eight
/// requests in flight over 5,000 URLs (a few hot, a long tail), each request's full event
/// sequence with realistic headers, a `stored` for every miss and an `evicted` keeping the
/// store at about 2,000 entries, and `storeStats` once per simulated second. About 10,000
/// events per simulated second.
struct SyntheticTraffic {
    private var random: SplitMix64
    private let urls: [String]
    private var flight = InFlightRequests()
    private var stored: [Int] = []

    init(seed: UInt64 = 42) {
        random = SplitMix64(seed: seed)
        urls = (0..<5000).map { index in
            switch index % 4 {
            case 0: "https://api.example.com/v1/items/\(index)?fields=summary&lang=en"
            case 1: "https://cdn.example.com/assets/app.\(index).js"
            case 2: "https://images.example.net/img/products/\(index)/large.webp"
            default: "https://shop.example.org/v2/search?q=item+\(index)&page=1"
            }
        }
    }

    /// Calls `body` with `count` events in order.
    mutating func generate(events count: Int, _ body: (CacheEvent) -> Void) {
        var produced = 0
        while produced < count {
            flight.time += 0.0001
            if flight.newSecond() != nil {
                body(flight.event(.storeStats(StoreStats(
                    memoryUsed: 40_000_000 + random.below(8_000_000), memoryCapacity: 64 << 20,
                    diskUsed: 300_000_000 + random.below(1_000_000), diskCapacity: 1 << 30, entryCount: stored.count))))
                produced += 1
                continue
            }
            if flight.wantsRequest(using: &random) { startRequest() }
            let event = flight.nextEvent(using: &random)
            body(event)
            produced += 1
            if case .stored = event.kind, stored.count > 2000 {
                let victim = stored.remove(at: random.below(stored.count))
                body(flight.event(.evicted(Evicted(entry: EntryRef(key: "GET " + urls[victim]), reason: .capacity, tier: .both, size: 20_000))))
                produced += 1
            }
        }
    }

    /// Events as an array (for the layout benchmark's fixed state).
    mutating func events(_ count: Int) -> [CacheEvent] {
        var result: [CacheEvent] = []
        result.reserveCapacity(count + 8)
        generate(events: count) { result.append($0) }
        return result
    }

    private mutating func startRequest() {
        let id = flight.newID()
        // A few hot URLs, a long tail.
        let index = random.unit() < 0.6 ? random.below(50) : random.below(urls.count)
        let url = urls[index]
        let key = "GET " + url
        let requestHeaders: HTTPFields = [.accept: "application/json", .userAgent: "bench/1.0"]
        let responseHeaders: HTTPFields = [
            .cacheControl: "max-age=60", .eTag: "\"\(index)-v1\"", .contentType: "application/json", .contentLength: "2048",
        ]
        var script: [CacheEventKind] = [
            .requestStarted(RequestStarted(method: "GET", url: url, cacheKey: key, policy: "protocol", headers: requestHeaders)),
        ]
        let roll = random.below(100)
        let outcome: CacheOutcome
        let source: ServedSource
        if roll < 55 {
            outcome = .hit
            source = .cache
            script.append(.lookup(Lookup(verdict: .fresh, reason: "max-age=60", age: 12, ttl: 48)))
        } else if roll < 70 {
            outcome = .revalidated
            source = .cache
            script += [
                .lookup(Lookup(verdict: .stale, reason: "expired 3s ago", age: 63, ttl: -3)),
                .revalidationSent(RevalidationSent(ifNoneMatch: "\"\(index)-v1\"", ifModifiedSince: nil)),
                .notModified(NotModified(freshened: 1, ttl: 60)),
            ]
        } else {
            outcome = .miss
            source = .network
            script += [
                .lookup(Lookup(verdict: .miss, reason: "not in cache")),
                .stored(Stored(entry: EntryRef(key: key), tier: .both, size: 2300, ttl: 60, etag: "\"\(index)-v1\"", lastModified: nil, status: 200)),
            ]
            stored.append(index)
        }
        script.append(.served(Served(source: source, status: 200, bytes: 2048, outcome: outcome, reason: "max-age=60",
                                     age: 12, ttl: 48, headers: responseHeaders)))
        script.append(.requestFinished(RequestFinished(
            status: 200, latency: 0.0005 + random.unit() * 0.05, bytesFromNetwork: source == .network ? 2048 : 0,
            bytesFromCache: source == .cache ? 2048 : 0, outcome: outcome, reason: "max-age=60")))
        flight.start(id, script: script)
    }
}

extension SplitMix64 {
    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    /// A number in `0..<1` from the top 53 bits.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
