public import Foundation
import HTTPCaching

/// One row of the store's listing (``ResponseStore/entries(now:)``): plain values the dashboard's
/// entries view shows, without the body.
public struct EntrySummary: Sendable, Hashable {
    /// The entry's identity (method, URI, Vary signature).
    public let id: EntryID
    /// The namespace it belongs to.
    public let namespace: String
    /// Where it lives.
    public let tier: EntryTier
    /// Size in bytes (body + status line + header fields + URI).
    public let size: Int
    /// The HTTP status code.
    public let status: Int
    /// When the request was sent and the response received.
    public let requestTime: Date
    /// When the response was received.
    public let responseTime: Date
    /// When it was stored.
    public let created: Date
    /// When it was last served.
    public let lastAccess: Date
    /// How many times it was served.
    public let hits: Int
    /// Its HTTP age in seconds at `now` (RFC 9111 §4.2.3: initial age plus resident time).
    public let age: Double
    /// End of its freshness lifetime.
    public let freshUntil: Date?
    /// Seconds of freshness left at `now` (negative when stale), or `nil` when unknown.
    public let ttlRemaining: Double?
    /// End of the store's retention.
    public let expiresAt: Date?
    /// The `ETag` field value, if any.
    public let eTag: String?
    /// The `Last-Modified` field value, if any.
    public let lastModified: String?
    /// Its tags (surrogate keys) from ``StoreConfiguration/tagField``; empty when it has none.
    public let tags: [String]

    /// The URI, for display.
    public var uri: String { id.key.uri }

    /// The method, for display.
    public var method: String { id.key.method }

    /// The Vary signature, for display (empty when the response does not vary).
    public var varySignature: String { id.varySignature }
}
