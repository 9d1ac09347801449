import Synchronization

// MARK: - State the endpoints share across connections

/// The mutable state behind the endpoints: the outage switch, which `/sie` targets have already
/// been answered once, and each item's version.
///
/// A `final class` with one `Mutex`: every access is a short synchronous step taken on an event
/// loop, so an actor's hop would only add latency.
final class EndpointState: Sendable {
    private struct Storage {
        var outage = false
        var answeredErrorTargets: Set<String> = []
        var itemVersions: [String: Int] = [:]
    }

    private let storage = Mutex(Storage())

    /// Whether every endpoint currently answers 503.
    var isOutage: Bool {
        get { storage.withLock { $0.outage } }
        set { storage.withLock { $0.outage = newValue } }
    }

    /// `true` the first time it is called for `target`, `false` ever after: `/sie` answers the
    /// first request 200 and every later one 500.
    func isFirstRequest(toFailingTarget target: String) -> Bool {
        storage.withLock { $0.answeredErrorTargets.insert(target).inserted }
    }

    /// The current version of item `id`; items start at version 1.
    func itemVersion(_ id: String) -> Int {
        storage.withLock { $0.itemVersions[id] ?? 1 }
    }

    /// Bumps item `id` to its next version and returns it.
    func bumpItemVersion(_ id: String) -> Int {
        storage.withLock {
            let next = ($0.itemVersions[id] ?? 1) + 1
            $0.itemVersions[id] = next
            return next
        }
    }
}
