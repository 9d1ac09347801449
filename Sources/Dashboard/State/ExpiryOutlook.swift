/// The entries whose freshness runs out within the next 10 s, 1 min and 10 min of a "now", and
/// their bytes: a coming wave of misses and revalidations, seen before it arrives.
///
/// Counts are cumulative (an entry expiring in 5 s is also within 1 min and 10 min), taken
/// from the entries the dashboard holds; entries already stale and entries without a known
/// TTL are not counted here.
public struct ExpiryOutlook: Sendable, Hashable {
    /// The horizons in seconds: 10, 60, 600.
    public static let horizons: [Double] = [10, 60, 600]

    /// Entries that expire within each horizon, in ``horizons`` order.
    public private(set) var entries = [Int](repeating: 0, count: ExpiryOutlook.horizons.count)
    /// Their bytes, in ``horizons`` order.
    public private(set) var bytes = [Int](repeating: 0, count: ExpiryOutlook.horizons.count)
    /// Entries whose freshness has already run out.
    public private(set) var expired = 0

    /// The outlook of `table`'s entries at session time `now`.
    public init(_ table: EntryTable, at now: Double) {
        table.forEach { record in
            guard let ttl = record.ttl(at: now) else { return }
            guard ttl > 0 else {
                expired += 1
                return
            }
            for (index, horizon) in Self.horizons.enumerated() where ttl <= horizon {
                entries[index] += 1
                bytes[index] += record.size
            }
        }
    }
}
