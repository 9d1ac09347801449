public import Foundation
public import HTTPCaching
public import HTTPTypes

/// What ``CachingClient/data(for:body:policy:)`` returns: the response, its body, and what
/// the cache did to produce it.
public struct ClientResponse: Sendable {
    /// Status and header fields as served (`Age` set for stored responses).
    public let response: HTTPResponse
    /// The body.
    public let body: Data
    /// The outcome word: hit, stale, revalidated, modified, miss, bypass or error.
    public let outcome: CacheOutcome
    /// Why, in words (`max-age=60`, `expired 3s ago`, `no-store`, …).
    public let reason: String
    /// The age of the served response in seconds (0 for a response just received).
    public let age: Double?
    /// Seconds of freshness left (negative when served stale; nil when not cacheable).
    public let timeToLive: Double?
    /// Whether the origin was contacted for this request (a 304 counts).
    public let fromNetwork: Bool
    /// Whether it shared another request's origin fetch.
    public let coalesced: Bool
    /// The request's ID in the event stream.
    public let requestID: UInt64
    /// Why the request went to the origin (a miss, a revalidation, a bypass); `nil` for a
    /// response the cache gave without asking it (a stale one under `stale-if-error` included).
    public var forwardCause: ForwardCause? = nil
    /// The URL that answered when redirects were followed to it; `nil` when the request's own
    /// URL answered.
    public internal(set) var redirectedURL: String? = nil
}

/// Errors the caching client throws.
public enum CachingClientError: Error, Sendable, CustomStringConvertible {
    /// Policy `returnCacheDataDontLoad` (or `only-if-cached`) and nothing usable is stored.
    case notCached(url: String)
    /// The URL cannot be requested (not absolute http or https).
    case invalidURL(String)
    /// The origin could not be reached and no stored response may stand in.
    case transport(TransportError)
    /// More redirects than allowed.
    case tooManyRedirects(url: String, limit: Int)
    /// The client was shut down.
    case shutDown
    /// A refresh (revalidation) asked for a key the store does not hold.
    case nothingToRefresh(url: String)

    public var description: String {
        switch self {
        case .notCached(let url): return "\(url) is not in the cache and the policy forbids the network"
        case .invalidURL(let url): return "cannot request \"\(url)\": give an absolute http:// or https:// URL"
        case .transport(let error): return error.description
        case .tooManyRedirects(let url, let limit): return "\(url) redirected more than \(limit) times"
        case .shutDown: return "the caching client was shut down"
        case .nothingToRefresh(let url): return "\(url) is not in the cache: there is nothing to revalidate (a reload fetches it)"
        }
    }
}
