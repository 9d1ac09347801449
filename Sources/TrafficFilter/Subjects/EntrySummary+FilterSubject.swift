public import CacheStore

/// A stored entry as the store lists it (``ResponseStore/entries(now:)``), for a filter: what
/// a caching client evaluates a purge by filter over. TTL and age are those of the listing's
/// `now`; `outcome`, `reason`, `h:NAME` and `bg` do not apply and never match.
extension EntrySummary: FilterSubject {
    /// The key's method.
    public var filterMethod: String? { method }
    /// The key's URL.
    public var filterURL: String? { uri }
    /// The stored status.
    public var filterStatus: Int? { status }
    /// Freshness left at the listing's moment.
    public var filterTTL: Double? { ttlRemaining }
    /// Age at the listing's moment.
    public var filterAge: Double? { age }
    /// The stored size.
    public var filterSize: Int? { size }
    /// Where it lives.
    public var filterTier: EntryTier? { tier }
    /// Its tags.
    public var filterTags: [String]? { tags }
}
