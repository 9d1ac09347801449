public import CacheEvents
public import HTTPTypes

/// One request assembled from its events (`requestStarted` … `requestFinished`), so a
/// ``Filter`` can be matched against a session's raw events as against the dashboard's rows.
public struct EventRequest: RequestFilterSubject, Sendable {
    /// `GET`, `POST`, … (`?` when its start was not seen).
    public var method = "?"
    /// The URL (empty when its start was not seen).
    public var url = ""
    /// The primary cache key; empty when the request has none.
    public var cacheKey = ""
    /// The policy's name.
    public var policy = ""
    /// The request's header fields.
    public var requestHeaders: HTTPFields = [:]
    /// The lookup, once seen.
    public var lookup: Lookup?
    /// The conditional request, if any.
    public var revalidation: RevalidationSent?
    /// The response served, once seen.
    public var served: Served?
    /// How it ended, once seen.
    public var finished: RequestFinished?

    /// A request of which nothing is known yet.
    public init() {}

    /// Adds what one of the request's events says.
    public mutating func apply(_ kind: CacheEventKind) {
        switch kind {
        case .requestStarted(let started):
            (method, url, cacheKey, policy, requestHeaders) =
                (started.method, started.url, started.cacheKey, started.policy, started.headers)
        case .lookup(let lookup): self.lookup = lookup
        case .revalidationSent(let sent): revalidation = sent
        case .served(let served): self.served = served
        case .requestFinished(let finished): self.finished = finished
        default: break
        }
    }
}
