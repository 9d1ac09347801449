import CacheEvents
import CacheStore
public import Foundation
public import HTTPCaching
public import HTTPTypes
import SharedTier

extension CachingClient {
    /// The most times one request looks in the store before it fetches whatever flights for
    /// other keys do meanwhile (see ``lookUpAndExecute(run:key:)``).
    static let maximumLookups = 3

    /// Sends a request through the cache and returns the response with its outcome.
    ///
    /// - Parameters:
    ///   - request: an absolute request (scheme, authority and path set).
    ///   - body: the request body, for methods that carry one.
    ///   - policy: overrides the configuration's default policy for this request.
    /// - Throws: ``CachingClientError``; a transport failure is thrown only when no stored
    ///   response may stand in for the origin (`stale-if-error`).
    public func data(for request: HTTPRequest, body: Data? = nil, policy: CachePolicy? = nil) async throws -> ClientResponse {
        guard !isShutDown else { throw CachingClientError.shutDown }
        var current = request
        var currentBody = body
        var hops = 0
        while true {
            var result = try await singleRequest(current, body: currentBody, policy: policy ?? configuration.defaultPolicy)
            guard configuration.followRedirects, let next = redirectTarget(of: current, response: result.response) else {
                if hops > 0 { result.redirectedURL = Self.url(of: current) }
                return result
            }
            hops += 1
            guard hops <= configuration.maximumRedirects else {
                throw CachingClientError.tooManyRedirects(url: Self.url(of: request), limit: configuration.maximumRedirects)
            }
            let hop = RedirectHop.next(after: current, status: result.response.status.code, to: next)
            current = hop.request
            if !hop.keepsBody { currentBody = nil }
        }
    }

    /// Sends a GET for an absolute URL string through the cache.
    public func data(from url: String, headers: HTTPFields = [:], policy: CachePolicy? = nil) async throws -> ClientResponse {
        guard let request = Self.request(url: url, headers: headers) else { throw CachingClientError.invalidURL(url) }
        return try await data(for: request, policy: policy)
    }

    /// Builds a GET request for an absolute http(s) URL; `nil` when the URL is not one.
    public static func request(url: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:]) -> HTTPRequest? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return nil }
        let authority = components.port.map { "\(host):\($0)" } ?? host
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        return HTTPRequest(method: method, scheme: scheme, authority: authority, path: path, headerFields: headers)
    }

    /// The absolute URL `request` targets, as events and logs name it.
    public static func url(of request: HTTPRequest) -> String {
        // Every request builds it: its parts' bytes copied into one allocation of the right size.
        var parts = (request.scheme ?? "http", "://", request.authority ?? "", request.path ?? "/")
        let count = parts.0.utf8.count + 3 + parts.2.utf8.count + parts.3.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            var written = copy(&parts.0, into: buffer, at: 0)
            written = copy(&parts.1, into: buffer, at: written)
            written = copy(&parts.2, into: buffer, at: written)
            return copy(&parts.3, into: buffer, at: written)
        }
    }

    /// Copies `part`'s UTF-8 bytes into `buffer` from `offset`; returns the offset after them.
    private static func copy(_ part: inout String, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        part.withUTF8 { bytes in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[offset..<(offset + bytes.count)]).initialize(from: bytes)
            return offset + bytes.count
        }
    }

    private func redirectTarget(of request: HTTPRequest, response: HTTPResponse) -> HTTPRequest? {
        switch response.status.code {
        case 301, 302, 303, 307, 308: break
        default: return nil
        }
        guard let location = response.headerFields[.location],
            let resolved = URL(string: location, relativeTo: URL(string: Self.url(of: request)))?.absoluteString
        else { return nil }
        return Self.request(url: resolved)
    }

    // MARK: One hop

    /// `streaming`: set for a request made with ``stream(for:body:length:policy:)``.
    func singleRequest(
        _ request: HTTPRequest, body: Data?, policy: CachePolicy, streaming: StreamingExchange? = nil, shape: ServedShape? = nil
    ) async throws -> ClientResponse {
        var run = RequestRun(id: events.makeRequestID(), request: request, body: body, policy: policy, start: configuration.now())
        run.streaming = streaming
        run.shape = shape
        let url = Self.url(of: request)
        // The same key as `CacheKey(request)`, from the URL string built once for both. A GET or
        // HEAD with content has none: nothing is looked up, stored or shared under its URL
        // (``BypassReason/requestContent(_:)``).
        let safeWithContent = run.hasContent && (request.method == .get || request.method == .head)
        let key = request.scheme != nil && request.authority != nil && !safeWithContent
            ? CacheKey(method: request.method.rawValue, uri: url) : nil
        run.keyDescription = key?.description
        publishStarted(run, url: url)
        do {
            return try await lookUpAndExecute(run: run, key: key)
        } catch {
            // Cut off by `shutdown()` (the transport reports its requests cancelled, which reads
            // as a failed connection): said as what it was.
            let error = isShutDown ? CachingClientError.shutDown : error
            finishWithError(error, run: run)
            throw error
        }
    }

    /// Publishes `requestStarted` for `run` (its URL as ``url(of:)`` builds it): the first
    /// event of every request, whichever path answers it.
    func publishStarted(_ run: RequestRun, url: String) {
        events.publish(
            .requestStarted(RequestStarted(
                method: run.request.method.rawValue, url: url, cacheKey: run.keyDescription ?? "",
                policy: run.policy.commandLineName, headers: run.request.headerFields)),
            requestID: run.id, at: run.start)
    }

    /// Looks the request up, publishes the verdict (`lookup`) and carries the decision out.
    ///
    /// Again, with a second `lookup`, when the coalescer says a flight for the key ended while
    /// this lookup ran (see ``RequestCoalescer``): what that flight stored is found then,
    /// instead of fetching it a second time.
    func lookUpAndExecute(run: RequestRun, key: CacheKey?) async throws -> ClientResponse {
        // Before the lookup: a flight that ends after this cannot have stored in time for it.
        // Without a ticket, the last lookup allowed leads when nobody else does: on a client
        // where flights for other keys end all the time, a request looks at most
        // `maximumLookups` times.
        let ticket = run.lookups < Self.maximumLookups ? coalescer.ticket() : nil
        let request = run.request
        // The first lookup happens as the request starts: one clock reading serves both.
        let now = run.lookups == 1 ? run.start : configuration.now()
        var candidates: [CacheEntry] = []
        var askedSharedTier = false
        if let key, request.method == .get || request.method == .head {
            // Memory answers without an async call; only a file to read takes one. (The price,
            // on that slower path: the in-memory index is asked twice, about 0.1 µs against a
            // disk read's tens.)
            if let inMemory = store.memoryVariants(for: key, now: now) {
                candidates = inMemory
            } else {
                candidates = await store.variants(for: key, now: now)
            }
            // Nothing here: the shared tier, when there is one, before the origin.
            if candidates.isEmpty, let sharedTier {
                candidates = await variantsFromSharedTier(key, sharedTier, request: request, now: now)
                askedSharedTier = true
            }
        }
        var decision = rules.decide(
            request: request, key: key, policy: run.policy, candidates: candidates.map(\.stored), now: now, requestHasContent: run.hasContent)
        // Variants here, none of them the one asked for (`Vary`): another instance may have
        // stored it. The tier's other variants join these (one query, as on a miss), and the
        // rules decide again. (Asked only of a decision that found nothing to use: a hit
        // costs nothing more.)
        if !askedSharedTier, let key, let sharedTier, !candidates.isEmpty, selectsNoVariant(decision, candidates, request) {
            let more = await variantsFromSharedTier(key, sharedTier, request: request, now: now, alongside: candidates)
            if more.count > candidates.count {
                candidates = more
                decision = rules.decide(
                    request: request, key: key, policy: run.policy, candidates: candidates.map(\.stored), now: now, requestHasContent: run.hasContent)
            }
        }
        let reason = decision.reason
        let lookup = lookupEvent(decision, reason: reason, candidates: candidates, now: now)
        if let answer = try answerFromStore(decision, reason: reason, lookup: lookup, lookedUpAt: now, run: run, key: key, candidates: candidates) {
            return answer
        }
        events.publish(lookup, requestID: run.id, at: now)
        return try await network(decision, reason: reason, run: run, key: key, candidates: candidates, lookedUpAt: ticket)
    }

    /// Whether `decision` was taken because no candidate's `Vary` fields match the request's: a
    /// miss saying so, or a request that forbids the network and got nothing (whose decision
    /// does not say why).
    private func selectsNoVariant(_ decision: CacheDecision, _ candidates: [CacheEntry], _ request: HTTPRequest) -> Bool {
        switch decision {
        case .miss(let miss):
            if case .varyMismatch = miss.reason { return true }
            return false
        case .unsatisfiable:
            return rules.select(from: candidates.map(\.stored), for: request.headerFields).index == nil
        default:
            return false
        }
    }

    /// The `lookup` event of a decision.
    func lookupEvent(_ decision: CacheDecision, reason: String, candidates: [CacheEntry], now: Date) -> CacheEventKind {
        let freshness: Freshness?
        switch decision {
        case .fresh(let hit): freshness = hit.freshness
        case .stale(let hit), .staleWhileRevalidate(let hit): freshness = hit.freshness
        case .revalidate(let revalidation): freshness = revalidation.freshness
        case .miss(let miss):
            // A stale response without a validator: report how old it was.
            freshness = miss.candidate.map { rules.freshness(of: candidates[$0].stored, now: now) }
        default: freshness = nil
        }
        return .lookup(Lookup(verdict: decision.verdict, reason: reason, age: freshness?.age, ttl: freshness?.timeToLive))
    }

    /// The two events that end a request that produced no response: `error`, then
    /// `requestFinished` with outcome `error`.
    func finishWithError(_ error: any Error, run: RequestRun) {
        let message = String(describing: error)
        events.publish(.error(ErrorInfo(message: message)), requestID: run.id)
        events.publish(
            .requestFinished(RequestFinished(
                status: 0, latency: run.elapsed(at: configuration.now()), bytesFromNetwork: 0, bytesFromCache: 0, outcome: .error, reason: message,
                background: run.background)),
            requestID: run.id)
    }
}

/// The context of one request as it moves through the client.
struct RequestRun: Sendable {
    let id: UInt64
    let request: HTTPRequest
    let body: Data?
    let policy: CachePolicy
    /// When the request started, on the client's clock (``CachingClientConfiguration/now``).
    let start: Date
    /// Whether this is a background revalidation (stale-while-revalidate) nobody waits for.
    var background = false
    /// How many times this request has looked in the store (more than once when a flight for
    /// its key ended while it looked; see ``CachingClient/lookUpAndExecute(run:key:)``).
    var lookups = 1
    /// Its cache key as text, once it was written (for the `requestStarted` event), so the
    /// coalescer's flight key need not write it again.
    var keyDescription: String?
    /// The request body to stream and the response body passed through, for a request made
    /// with ``CachingClient/stream(for:body:length:policy:)``; `nil` for a whole-body one.
    var streaming: StreamingExchange?
    /// How the caller answers what is served, when not with the response as it is (a proxy's
    /// 304, 206 or HEAD): the served events then report what its client got.
    var shape: ServedShape?

    /// Whether the request carries content (a body to send): a GET or HEAD that does is
    /// neither answered from the cache nor stored (``BypassReason/requestContent(_:)``).
    var hasContent: Bool { body?.isEmpty == false || streaming?.requestBody != nil }

    /// Seconds from the start to `now`, on the same clock: simulated traffic gets simulated
    /// latencies.
    func elapsed(at now: Date) -> Double {
        max(0, now.timeIntervalSince(start))
    }
}
