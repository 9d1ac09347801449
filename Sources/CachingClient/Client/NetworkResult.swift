import Foundation
import HTTPCaching
import HTTPTypes

/// What one origin exchange produced, shared by every request coalesced onto it.
struct NetworkResult: Sendable {
    /// The response to serve (for a 304: the stored response, freshened).
    let response: HTTPResponse
    /// The body to serve.
    let body: Data
    /// revalidated, modified, miss or bypass.
    var outcome: CacheOutcome
    /// Why, in words.
    var reason: String
    /// Body bytes that crossed the network.
    let bytesFromNetwork: Int
    /// Whether the body came from the store (after a 304).
    let bodyFromCache: Bool
    /// Age of the served response.
    let age: Double?
    /// Freshness left, when the response is cacheable.
    let timeToLive: Double?
    /// The Vary key of what was stored, so coalesced followers can check they match it.
    let storedVaryKey: VaryKey?
    /// Whether the body went to the leader's caller as it arrived (too large to collect), so
    /// `body` is empty and coalesced followers must fetch their own.
    var passedThrough = false

    var status: Int { response.status.code }
}
