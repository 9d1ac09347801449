public import CachingClient
import HTTPCaching
public import Foundation
import HTTPTypes

/// What `cachescope get` reports about one request, as text (stderr) or JSON (stdout).
public struct GetReport: Encodable, Sendable {
    public let outcome: String
    public let reason: String
    public let status: Int
    public let age: Double?
    public let ttl: Double?
    public let fromNetwork: Bool
    public let bytes: Int

    public init(_ result: ClientResponse) {
        outcome = result.outcome.rawValue
        reason = result.reason
        status = result.response.status.code
        age = result.age.map { ($0 * 1000).rounded() / 1000 }
        ttl = result.timeToLive.map { ($0 * 1000).rounded() / 1000 }
        fromNetwork = result.fromNetwork
        bytes = result.body.count
    }

    /// `HIT max-age=60 · 200 · age 3s · ttl 57s · 1234 bytes from cache`, or after a 304
    /// `… · 1234 bytes from cache, origin asked`.
    public var text: String {
        var parts = ["\(outcome.uppercased()) \(reason)", "\(status)"]
        if let age { parts.append("age \(Int(age.rounded()))s") }
        if let ttl { parts.append("ttl \(Int(ttl.rounded()))s") }
        // `fromNetwork` tells whether the origin was contacted; the body of a revalidated or
        // stale response (stale-if-error) still comes from the store.
        if bodyFromCache {
            parts.append("\(bytes) bytes from cache" + (fromNetwork ? ", origin asked" : ""))
        } else if fromNetwork {
            parts.append("\(bytes) bytes from network")
        } else {
            parts.append("\(bytes) bytes")  // answered by the cache without a stored body (504)
        }
        return parts.joined(separator: " · ")
    }

    private var bodyFromCache: Bool {
        CacheOutcome(rawValue: outcome)?.servedFromCache == true
    }

    public func jsonLine() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
