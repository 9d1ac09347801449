import CacheEvents
/// Shares identical header lists between events: a session's requests mostly send the same
/// few header sets, so one array serves them all. Lists are keyed by a hash of their JSON
/// text and compared with that text field by field (no strings built) before being shared;
/// at most ``capacity`` distinct lists are remembered (response header sets, which carry
/// dates and ETags, are mostly unique).
///
/// Lists it builds have exactly the capacity they need, shared or not.
struct HeaderListInterner {
    /// The most distinct lists remembered.
    static let capacity = 4096
    private static let tableSize = capacity * 2

    /// Open addressing keyed by the text's hash (already well mixed, so no `Hasher` round).
    private var hashes: [UInt64] = []
    private var lists: [[HeaderField]?] = []
    private var count = 0
    private var scratch: [HeaderField] = []

    /// The list remembered under `hash` if `matches` confirms it, else the list `build`
    /// appends (remembered for next time while there is room).
    mutating func list(
        hash: UInt64, matches: ([HeaderField]) -> Bool, _ build: (inout [HeaderField]) -> Void
    ) -> [HeaderField] {
        if hashes.isEmpty {
            hashes = [UInt64](repeating: 0, count: Self.tableSize)
            lists = [[HeaderField]?](repeating: nil, count: Self.tableSize)
        }
        let mask = Self.tableSize - 1
        var cell = Int(truncatingIfNeeded: hash) & mask
        while let cached = lists[cell] {
            if hashes[cell] == hash, matches(cached) { return cached }
            cell = (cell + 1) & mask
        }
        scratch.removeAll(keepingCapacity: true)
        build(&scratch)
        let built = scratch.count
        let list = scratch.withUnsafeBufferPointer { source in
            [HeaderField](unsafeUninitializedCapacity: built) { target, initialized in
                for index in 0..<built { (target.baseAddress! + index).initialize(to: source[index]) }
                initialized = built
            }
        }
        if count < Self.capacity {
            hashes[cell] = hash
            lists[cell] = list
            count += 1
        }
        return list
    }
}
