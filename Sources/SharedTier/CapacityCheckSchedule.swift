/// When an instance looks whether the shared table is over its bound: at its first write, then
/// each time it has written another ``interval`` bytes — not after every write, since looking
/// sums the `size` column of the whole table (about 9 ms for a full 256 MiB table of 10 KiB
/// entries: at one look a write, PostgreSQL could take about a hundred writes a second).
///
/// The table may then exceed its capacity by what the instances wrote since their last look:
/// at most ``interval`` bytes (plus one entry) each.
struct CapacityCheckSchedule {
    /// Bytes written between two looks: 1/64 of the capacity, at least 1.
    let interval: Int
    /// Bytes written since the last look; starts full, so the first write looks.
    private var written: Int
    /// Looks so far. A test seam.
    private(set) var looks = 0

    init(capacity: Int) {
        interval = max(1, capacity / 64)
        written = interval
    }

    /// Counts a write of `size` bytes; whether it is time to look.
    mutating func wrote(_ size: Int) -> Bool {
        written += size
        guard written >= interval else { return false }
        written = 0
        looks += 1
        return true
    }
}
