/// The storage keys of one primary key's variants, never empty. The first is held inline:
/// most keys have one variant, and a memory hit then reads no array buffer (one cache miss
/// fewer on a large store).
struct VariantKeys: Sendable, Sequence {
    private(set) var first: StorageKey
    /// Where the first variant sat in the memory tier when last seen: a hint that spares a
    /// hash lookup on a hit (checked against the slot's key, so a stale hint is harmless).
    var firstSlot: Int32 = -1
    private var rest: [StorageKey] = []

    init(_ first: StorageKey) {
        self.first = first
    }

    /// The keys of a non-empty array; `nil` for an empty one.
    init?(_ keys: [StorageKey]) {
        guard let head = keys.first else { return nil }
        first = head
        rest = Array(keys.dropFirst())
    }

    var count: Int { 1 + rest.count }

    func contains(_ key: StorageKey) -> Bool { first == key || rest.contains(key) }

    /// Adds a key if absent.
    mutating func insert(_ key: StorageKey) {
        if !contains(key) { rest.append(key) }
    }

    /// The keys without `key`, or `nil` when none would be left.
    func removing(_ key: StorageKey) -> VariantKeys? {
        if first == key {
            return VariantKeys(rest)
        }
        var copy = self
        copy.rest.removeAll { $0 == key }
        return copy
    }

    func makeIterator() -> IndexingIterator<[StorageKey]> {
        ([first] + rest).makeIterator()
    }

    /// Calls `body` with each key without building an array.
    func forEachKey(_ body: (StorageKey) -> Void) {
        body(first)
        for key in rest { body(key) }
    }
}
