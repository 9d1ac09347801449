import Synchronization

/// The bytes of origin response bodies a client is collecting to store, across all of its
/// streamed requests (``CachingClient/stream(for:body:length:policy:)``, the proxy's): each such
/// body is held whole in memory until its end, so the total is bounded — a body that would
/// take it past the bound is passed through to its caller uncollected, as one too large for
/// the store is, and not stored.
///
/// Without it, many concurrent misses of distinct large bodies (each within the store's
/// per-entry limit, 12.8 MB by default) held them all at once: 40 of 12 MB took a proxy to
/// 880 MB resident.
final class CollectingBudget: Sendable {
    private let inUse = Atomic<Int>(0)

    init() {}

    /// Bytes being collected now.
    var bytesInUse: Int { inUse.load(ordering: .relaxed) }

    /// Takes `bytes` if the total stays within `capacity`; `false`, taking nothing, otherwise.
    func take(_ bytes: Int, within capacity: Int) -> Bool {
        var current = inUse.load(ordering: .relaxed)
        while true {
            guard bytes <= capacity - current else { return false }
            let (exchanged, original) = inUse.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Gives back what ``take(_:within:)`` took.
    func give(_ bytes: Int) {
        inUse.subtract(bytes, ordering: .relaxed)
    }
}
