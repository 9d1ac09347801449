import CacheStore

// CacheStore and CacheEvents both name a `StoreStats` and an `EvictionReason` (the store's
// own and the event payload's). This file sees only the store's, so these names pick them
// out for the files that import both modules.

/// The store's statistics type.
typealias StoreStatistics = StoreStats
/// The store's eviction reason type.
typealias StoreEvictionReason = EvictionReason
