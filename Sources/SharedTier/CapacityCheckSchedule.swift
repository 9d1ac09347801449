/// When an instance looks whether the shared table is over its bound: at its first write, then
/// once it has written another ``interval`` bytes since its last look began — not after every
/// write, since looking sums the `size` column of the whole table (9 ms for a full 256 MiB
/// table of 10 KiB entries), and an instance that looked after every write kept such a scan
/// running in PostgreSQL for as long as it wrote.
///
/// A look that could not finish (the database failed, or the pass reached its round limit)
/// leaves the schedule due, so the next write looks again; a write while a look is under way
/// counts toward the next one. Once the last look has ended, the table exceeds its capacity
/// by at most what each instance wrote since: under ``interval`` bytes, plus one entry.
struct CapacityCheckSchedule {
    /// Bytes written between two looks: 1/64 of the capacity, at least 1.
    let interval: Int
    /// Bytes written since the last look began; starts due, so the first write looks.
    private var written: Int
    /// Looks begun so far. A test seam.
    private(set) var looks = 0

    init(capacity: Int) {
        interval = max(1, capacity / 64)
        written = interval
    }

    /// Counts a write of `size` bytes; whether a look is due.
    mutating func wrote(_ size: Int) -> Bool {
        written += size
        return written >= interval
    }

    /// A look begins: writes count toward the next one from now.
    mutating func looking() {
        written = 0
        looks += 1
    }

    /// The look could not finish: the next write looks again.
    mutating func unfinished() {
        written = max(written, interval)
    }
}
