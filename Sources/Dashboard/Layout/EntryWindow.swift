import CacheEvents
import TrafficFilter

/// The Entries view's rows in sort order, and which is selected.
struct EntryWindow: Sendable {
    /// Every entry in sort order.
    let rows: [EntryRecord]
    /// The selected row (`nil` when there are no entries).
    let selectedIndex: Int?
    /// The top row's index.
    let top: Int

    /// The entries in sort order — only those the interface's filter matches at `now`.
    init(table: EntryTable, interface: InterfaceState, rows visibleRows: Int, now: Double) {
        var entries = table.all
        if let filter = interface.filter { entries = entries.filter { filter.matches(EntryRow($0, now: now)) } }
        let rows = Self.sorted(entries, by: interface.sort)
        self.rows = rows
        guard !rows.isEmpty else {
            (selectedIndex, top) = (nil, 0)
            return
        }
        let index = interface.entrySelection.flatMap { id in rows.firstIndex { $0.id == id } }
            ?? min(max(0, interface.entryRow), rows.count - 1)
        var top = min(max(0, interface.entryTop), max(0, rows.count - 1))
        if index < top { top = index }
        if index >= top + visibleRows { top = index - visibleRows + 1 }
        selectedIndex = index
        self.top = top
    }

    /// The selected entry.
    var selected: EntryRecord? { selectedIndex.map { rows[$0] } }

    /// Sorts entries: TTL soonest-to-expire first (unknown last), size and hits largest first,
    /// key alphabetically; ties by key and variant, so the order never flickers. Sorts indices
    /// on a precomputed number, comparing strings only for ties, because this runs every frame.
    static func sorted(_ entries: [EntryRecord], by sort: EntrySort) -> [EntryRecord] {
        func tie(_ a: Int, _ b: Int) -> Bool {
            let (x, y) = (entries[a].ref, entries[b].ref)
            return x.key != y.key ? x.key < y.key : x.variant < y.variant
        }
        var order = Array(entries.indices)
        if sort.column == .url {
            order.sort(by: tie)
        } else {
            let numbers: [Double] = entries.map { entry in
                switch sort.column {
                case .ttl: entry.expiresAt ?? .infinity
                case .size: -Double(entry.size)
                case .hits: -Double(entry.hits)
                case .url: 0
                }
            }
            order.sort { numbers[$0] != numbers[$1] ? numbers[$0] < numbers[$1] : tie($0, $1) }
        }
        if sort.reversed { order.reverse() }
        return order.map { entries[$0] }
    }
}
