public import Foundation

/// What the store records about an entry besides the response itself.
///
/// `freshUntil` and `expiresAt` come from the caller (the caching client computes them with
/// `HTTPCaching`); a namespace's TTL override caps both at `created + ttl`.
public struct EntryMetadata: Sendable, Hashable, Codable {
    /// The entry's identity.
    public let id: EntryID
    /// When it was stored.
    public var created: Date
    /// When it was last served (``ResponseStore/recordAccess(_:now:)``), or `created`.
    public var lastAccess: Date
    /// How many times it was served.
    public var accessCount: Int
    /// Its size in bytes: body plus status line, header fields and URI (see ``CacheEntry/size(of:body:)``).
    public var size: Int
    /// Where it lives now.
    public var tier: EntryTier
    /// The end of its HTTP freshness lifetime (`nil`: none known); after it the client must
    /// revalidate, and the dashboard's TTL counts down to it.
    public var freshUntil: Date?
    /// The end of the store's retention (`nil`: kept until evicted): after it the entry is
    /// useless, the TTL sweep removes it, and no lookup returns it.
    public var expiresAt: Date?

    /// Metadata from its parts.
    public init(
        id: EntryID, created: Date, lastAccess: Date, accessCount: Int, size: Int, tier: EntryTier,
        freshUntil: Date?, expiresAt: Date?
    ) {
        self.id = id
        self.created = created
        self.lastAccess = lastAccess
        self.accessCount = accessCount
        self.size = size
        self.tier = tier
        self.freshUntil = freshUntil
        self.expiresAt = expiresAt
    }

    /// Whether the retention has ended at `now`.
    public func isExpired(at now: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt <= now
    }
}
