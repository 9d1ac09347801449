import CacheEvents
import CachingClient
import DemoOrigin
import Foundation
import HTTPCaching
import HTTPTypes
import BenchmarkSupport

/// `--breakdown`: what each step of a fresh hit and of a 304 costs on its own, to find where
/// a request's time goes (the steps are the public pieces the client is made of).
func printStepBreakdown(client: CachingClient, origin: DemoOrigin, hitRequest: HTTPRequest) async throws {
    let rules = CacheRules()
    let now = Date()
    let key = CacheKey(hitRequest)!
    let candidates = await client.store.variants(for: key)
    let stored = candidates.map(\.stored)
    let decision = rules.decide(request: hitRequest, key: key, policy: .useProtocolCachePolicy, candidates: stored, now: now)
    let bus = EventBus()
    let batches = bus.subscribe(.recorder)

    let revalidateKey = CacheKey(method: "GET", uri: origin.baseURL + "/no-cache")!
    _ = try await client.data(from: origin.baseURL + "/no-cache")
    let revalidateEntries = await client.store.variants(for: revalidateKey)
    let revalidateStored = revalidateEntries.map(\.stored)
    var notModifiedFields = HTTPFields()
    notModifiedFields[.eTag] = revalidateStored[0].response.headerFields[.eTag]
    notModifiedFields[.cacheControl] = "no-cache"
    notModifiedFields[.date] = HTTPDate.format(now)
    let notModified = HTTPResponse(status: .notModified, headerFields: notModifiedFields)
    let freshened = rules.freshen(revalidateStored[0], with: notModified, requestTime: now, responseTime: now)

    let steps: [(String, () -> Void)] = [
        ("hit: CacheKey(request)", { _ = CacheKey(hitRequest) }),
        ("hit: store.memoryVariants", { _ = client.store.memoryVariants(for: key) }),
        ("hit: candidates.map(\\.stored)", { _ = candidates.map(\.stored) }),
        ("hit: rules.decide", { _ = rules.decide(request: hitRequest, key: key, policy: .useProtocolCachePolicy, candidates: stored, now: now) }),
        ("hit: decision.reason", { _ = decision.reason }),
        ("hit: servedHeaderFields", { _ = rules.servedHeaderFields(for: stored[0], age: 5, revalidated: false) }),
        ("hit: Data(body)", { _ = Data(candidates[0].body) }),
        ("hit: store.recordAccess", { client.store.recordAccess(candidates[0]) }),
        ("event: publish (1 batch subscriber)", { bus.publish(.error(ErrorInfo(message: "x")), requestID: 1) }),
        ("304: responsesToFreshen", { _ = rules.responsesToFreshen(notModified: notModified, candidates: revalidateStored, validated: 0, now: now) }),
        ("304: freshen", { _ = rules.freshen(revalidateStored[0], with: notModified, requestTime: now, responseTime: now) }),
        ("304: store.storeCachedResponse", {
            _ = client.store.storeCachedResponse(freshened, body: revalidateEntries[0].body, freshUntil: now, expiresAt: nil, policy: .allowed)
        }),
        ("clock: Date()", { _ = Date() }),
        ("clock: ContinuousClock.now", { _ = ContinuousClock.now }),
    ]
    for (name, step) in steps {
        print(measure(name, samples: 50, iterations: 2000, step).summary)
        _ = batches.take()
    }
    print(try await measureRevalidationWithoutNetwork(origin: origin).summary)
}

/// Answers every request with a 304 that names `etag`, at once: the caching client's own
/// cost of a revalidation, without the network (for `--breakdown` only).
struct InstantNotModifiedTransport: Transport {
    let etag: String
    func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> TransportResponse {
        let fields: HTTPFields = [.eTag: etag, .cacheControl: "no-cache", .date: HTTPDate.format(Date())]
        return TransportResponse(response: HTTPResponse(status: .notModified, headerFields: fields), body: Data())
    }
    func shutdown() async throws {}
}

/// A caching client whose transport answers every request with a 304 at once, holding a
/// stored `/no-cache` response of `origin` (its real ETag) that every request revalidates.
func makeInstantRevalidationClient(origin: DemoOrigin) async throws -> (client: CachingClient, request: HTTPRequest) {
    let request = CachingClient.request(url: origin.baseURL + "/no-cache")!
    let seeding = try await CachingClient()
    let real = try await seeding.data(for: request)
    try await seeding.shutdown()
    let etag = real.response.headerFields[.eTag] ?? "\"x\""
    var configuration = CachingClientConfiguration()
    configuration.statsInterval = .seconds(3600)
    configuration.transport = InstantNotModifiedTransport(etag: etag)
    let client = try await CachingClient(configuration: configuration)
    let stored = StoredResponse(
        key: CacheKey(request)!, response: real.response, requestTime: Date(), responseTime: Date(),
        varyKey: VaryKey(responseHeaders: [:], requestHeaders: [:]))
    client.store.storeCachedResponse(stored, body: [UInt8](real.body), freshUntil: Date(), expiresAt: nil)
    let check = try await client.data(for: request)
    precondition(check.outcome == .revalidated, "expected a revalidation, got \(check.outcome)")
    return (client, request)
}

/// The client's CPU cost of one 304 round trip, the transport answering at once.
func measureRevalidationWithoutNetwork(origin: DemoOrigin) async throws -> BenchmarkSupport.Measurement {
    let (client, request) = try await makeInstantRevalidationClient(origin: origin)
    let watcher = await client.subscribe(.dashboard, snapshot: false).batches
    let drain = Task.detached { for await _ in watcher {} }
    let measured = try await Task.detached {
        try await measureAsync("304 through the client, transport answering at once", samples: 100, iterations: 200) {
            _ = try await client.data(for: request)
        }
    }.value
    drain.cancel()
    try await client.shutdown()
    return measured
}
