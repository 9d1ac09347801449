import CacheStore
import Foundation
import HTTPCaching
import Logging
import Synchronization

/// A purge this instance made while the shared tier could not be reached. The local copies
/// went at once; the tier's rows and the other instances wait until the tier answers again,
/// when ``SharedTier`` sends it (`sendUnsentPurges`, tried every few seconds). Until then a
/// lookup here leaves out every row it covers, so the instance that purged does not read back
/// what it purged — rows written after the purge too, as the send deletes them too.
struct UnsentPurge: Sendable {
    /// Tells it from the others once it has been sent.
    let id = UUID()
    /// What it covers.
    let scope: SharedPurge.Scope
    /// For a prefix or filter purge, the rows it takes (``SharedTier/rowsTaken(by:matching:)``).
    let matching: (@Sendable (OpenedHead) -> Bool)?

    /// Whether it covers `entry` (whose tags are `tags`): the rows its send will delete.
    func covers(_ entry: OpenedEntry, tags: [String]) -> Bool {
        switch scope {
        case .key(let key): return entry.stored.key == key
        case .tag(let tag): return tags.contains(tag)
        case .prefix, .filter: return matching?(entry.head) ?? false
        case .all: return true
        }
    }
}

/// The purges waiting to be sent, and whether a task is sending them.
struct UnsentPurges: Sendable {
    var waiting: [UnsentPurge] = []
    var sender: Task<Void, Never>?
}

extension SharedTier {
    /// How often the purges not sent yet are tried again, and how many times at most before
    /// they are given up (logged): about ten minutes.
    static let unsentPurgeRetry: (interval: Duration, attempts: Int) = (.seconds(3), 200)

    /// Keeps `purge` to send once the tier answers again, and starts trying if nothing is.
    func keepUnsent(_ purge: UnsentPurge) {
        unsentPurges.withLock { state in
            state.waiting.append(purge)
            guard state.sender == nil else { return }
            state.sender = Task { [self] in await sendUnsentPurges() }
        }
    }

    /// The unsent purges as they are now: a lookup takes them before its query, so that a
    /// purge sent while the query runs still keeps its rows out of that lookup's answer.
    var pendingUnsentPurges: [UnsentPurge] { unsentPurges.withLock { $0.waiting } }

    /// Whether one of `purges` covers `entry` (its tags are read only for a tag purge).
    func isCovered(_ entry: OpenedEntry, by purges: [UnsentPurge]) -> Bool {
        let tags = purges.contains { if case .tag = $0.scope { true } else { false } } ? storeConfiguration.tags(of: entry.stored) : []
        return purges.contains { $0.covers(entry, tags: tags) }
    }

    /// Sends the waiting purges, one after another, every ``unsentPurgeRetry`` interval until
    /// none is left: each deletes its rows and tells the other instances, and stays in the list
    /// — its rows kept out of lookups here — until that has committed. One task at a time
    /// (``keepUnsent(_:)`` starts it); it ends when the list is empty, the attempts run out or
    /// the tier shuts down.
    private func sendUnsentPurges() async {
        let (interval, attempts) = Self.unsentPurgeRetry
        for _ in 0..<attempts {
            do { try await Task.sleep(for: interval) } catch { break }
            for purge in pendingUnsentPurges {
                guard !Task.isCancelled, let count = await purgeNow(purge.scope, matching: purge.matching) else { continue }
                unsentPurges.withLock { $0.waiting.removeAll { $0.id == purge.id } }
                logger.info(
                    "shared tier: a purge made while it could not be reached was sent",
                    metadata: ["scope": "\(purge.scope)", "removed": "\(count)"])
            }
            let done = unsentPurges.withLock { state -> Bool in
                guard state.waiting.isEmpty else { return false }
                state.sender = nil
                return true
            }
            if done { return }
        }
        let given = unsentPurges.withLock { state -> [UnsentPurge] in
            defer { state = UnsentPurges() }
            return state.waiting
        }
        if !given.isEmpty, !Task.isCancelled {
            logger.warning(
                "shared tier: purges made while it could not be reached were never sent; the other instances keep their copies",
                metadata: ["purges": "\(given.map { "\($0.scope)" })"])
        }
    }
}
