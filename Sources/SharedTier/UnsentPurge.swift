import CacheStore
import Foundation
import Synchronization
import HTTPCaching
import Logging

/// A purge this instance made while the shared tier could not be reached. The local copies
/// went at once; the tier's rows and the other instances wait for the tier to answer again,
/// when ``SharedTier`` sends it (`sendUnsentPurges`). Until then, a lookup here leaves out the
/// rows it covers, so the instance that purged does not read back what it purged.
struct UnsentPurge: Sendable {
    /// Tells it from the others once it has been sent.
    let id = UUID()
    /// What it covers.
    let scope: SharedPurge.Scope
    /// For a prefix or filter purge, the rows it takes (as ``SharedTier/purge(_:at:matching:)`` was given them).
    let matching: (@Sendable (OpenedHead) -> Bool)?
    /// When it was made, by the client's clock: a row written after it is newer than the purge.
    let at: Date

    /// Whether it covers `entry` (whose tags are `tags`): written before the purge, and in its scope.
    func covers(_ entry: OpenedEntry, tags: [String]) -> Bool {
        guard entry.created <= at else { return false }
        switch scope {
        case .key(let key): return entry.stored.key == key
        case .tag(let tag): return tags.contains(tag)
        case .prefix(let prefix): return matching?(entry.head) ?? entry.stored.key.uri.hasPrefix(prefix)
        case .filter: return matching?(entry.head) ?? false
        case .all: return true
        }
    }
}

extension SharedTier {
    /// Whether a purge not yet sent covers `entry`.
    func isCoveredByUnsentPurge(_ entry: OpenedEntry) -> Bool {
        let tags = storeConfiguration.tags(of: entry.stored)
        return unsentPurges.withLock { purges in purges.contains { $0.covers(entry, tags: tags) } }
    }

    /// Sends the purges made while the tier could not be reached (it answers again): each
    /// deletes its rows and tells the other instances, and stays in the list — keeping its
    /// rows out of lookups here — until its deletion has committed; one that fails again
    /// waits for the next recovery.
    func sendUnsentPurges() async {
        for purge in unsentPurges.withLock({ $0 }) {
            guard let count = await purgeNow(purge.scope, matching: purge.matching) else { continue }
            unsentPurges.withLock { $0.removeAll { $0.id == purge.id } }
            logger.info(
                "shared tier: a purge made while it could not be reached was sent",
                metadata: ["scope": "\(purge.scope)", "removed": "\(count)"])
        }
    }
}
