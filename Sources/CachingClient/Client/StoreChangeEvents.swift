import CacheEvents
import CacheStore
import Foundation
import HTTPCaching

/// Turns the store's change notifications into events.
enum StoreChangeEvents {
    /// The event for a store change; `nil` for purges, which the client reports itself with
    /// their scope and count.
    static func kind(for change: StoreChange) -> CacheEventKind? {
        switch change {
        case .stored(let summary):
            return .stored(Stored(
                entry: ref(summary.id), tier: summary.tier, size: summary.size, ttl: summary.ttlRemaining,
                etag: summary.eTag, lastModified: summary.lastModified, status: summary.status,
                tags: summary.tags.isEmpty ? nil : summary.tags, age: summary.age))
        case .promoted(let id):
            return .promoted(ref(id))
        case .evicted(let eviction):
            return .evicted(Evicted(
                entry: ref(eviction.id), reason: eviction.reason,
                tier: eviction.remaining == nil ? .both : eviction.removedFrom, size: eviction.size))
        case .purged:
            return nil
        case .diskFailure(let message):
            return .error(ErrorInfo(message: "disk store degraded to memory only: \(message)"))
        case .indexReset(let message):
            return .error(ErrorInfo(message: "disk index was reset: \(message)"))
        }
    }

    static func entryInfo(_ summary: EntrySummary, now: Date) -> EntryInfo {
        EntryInfo(
            entry: ref(summary.id), tier: summary.tier, size: summary.size, ttl: summary.ttlRemaining,
            age: summary.age, etag: summary.eTag, lastModified: summary.lastModified, hits: summary.hits,
            idle: max(0, now.timeIntervalSince(summary.lastAccess)), status: summary.status,
            tags: summary.tags.isEmpty ? nil : summary.tags)
    }

    static func ref(_ id: EntryID) -> EntryRef { EntryRef(key: id.key.description, variant: id.varySignature) }
}
