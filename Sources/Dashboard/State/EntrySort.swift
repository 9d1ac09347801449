/// The Entries view's sort columns, in the order `o` cycles through them.
public enum EntrySortColumn: String, CaseIterable, Sendable, Hashable {
    /// Freshness left (soonest to expire first).
    case ttl
    /// Size (largest first).
    case size
    /// Hits (most first).
    case hits
    /// Key (alphabetical).
    case url

    /// The column's title as the table header shows it.
    public var title: String {
        switch self {
        case .ttl: "TTL"
        case .size: "SIZE"
        case .hits: "HITS"
        case .url: "KEY"
        }
    }

    /// The next column for `o`.
    public var next: EntrySortColumn {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// The Entries view's sort: a column and a direction (`O` reverses it).
public struct EntrySort: Sendable, Hashable {
    /// The column sorted by.
    public var column: EntrySortColumn
    /// Whether the column's natural order is reversed.
    public var reversed: Bool

    /// Creates a sort; by default soonest-to-expire first.
    public init(column: EntrySortColumn = .ttl, reversed: Bool = false) {
        self.column = column
        self.reversed = reversed
    }
}
