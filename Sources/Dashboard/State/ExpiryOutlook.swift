import HTTPCaching
import Synchronization

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

    /// The outlook of `table` at session time `now` as the dashboard draws it: worked out at
    /// most once per whole second of session time, or again when the number of entries
    /// changes — not on every frame, since it walks every entry. Within a second the
    /// remembered outlook is at most that second old. Copies of a table share what is
    /// remembered; a table that is not a copy (another replay's, a fresh one) starts over.
    public static func current(_ table: EntryTable, at now: Double) -> ExpiryOutlook {
        table.expiryMemo.outlook(of: table, at: now)
    }

    /// The outlook of `table`'s entries at session time `now`, worked out now.
    public init(_ table: EntryTable, at now: Double) {
        table.forEach { record in
            guard let ttl = record.ttl(at: now) else { return }
            guard ttl > 0 else {
                expired += 1
                return
            }
            for (index, horizon) in Self.horizons.enumerated() where ttl <= horizon {
                entries[index] += 1
                bytes[index].addSaturating(record.size)
            }
        }
    }
}

/// The ``ExpiryOutlook`` last worked out for an ``EntryTable`` (shared by its copies), with the
/// second and the entry count it was worked out at.
final class ExpiryOutlookMemo: Sendable {
    private struct Remembered {
        var second: Double
        var count: Int
        var outlook: ExpiryOutlook
    }

    private let remembered = Mutex<Remembered?>(nil)

    func outlook(of table: EntryTable, at now: Double) -> ExpiryOutlook {
        let second = now.rounded(.down)
        if let kept = remembered.withLock({ $0 }), kept.second == second, kept.count == table.count { return kept.outlook }
        let outlook = ExpiryOutlook(table, at: now)
        remembered.withLock { $0 = Remembered(second: second, count: table.count, outlook: outlook) }
        return outlook
    }
}
