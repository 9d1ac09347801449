/// A map from keys to values that remembers use order and the total of a per-value cost, with
/// O(1) insert, lookup, touch, removal and removal of the least recently used value.
///
/// The order lives in a doubly linked list threaded through an array of slots by index, so a
/// touch moves two integers instead of allocating nodes or retaining class instances; freed
/// slots are reused. Values sit in a parallel array, so reading one copies only it. Both tiers use it: the memory tier (cost = entry size) and the in-memory
/// index of each disk namespace.
///
/// Exposed as SPI only so the benchmark can guard the same structure with a `Mutex` and with
/// an actor and compare them; it is not part of the public API.
@_spi(Benchmarks)
public struct LRUList<Key: Hashable, Value> {
    /// Order and bookkeeping of one slot; the value lives apart in `values` so that reading
    /// a value copies only the value.
    fileprivate struct Link {
        var key: Key?
        var cost: Int
        var newer: Int32
        var older: Int32
    }

    private var links: [Link] = []
    private var values: [Value?] = []
    private var positions: [Key: Int32] = [:]
    private var freeSlots: [Int32] = []
    /// The most recently used slot, or -1.
    private var newest: Int32 = -1
    /// The least recently used slot, or -1.
    private var oldest: Int32 = -1

    /// The sum of the costs of all values.
    public private(set) var totalCost = 0

    /// An empty list.
    public init() {}

    /// Makes room for `capacity` values without reallocating.
    public mutating func reserveCapacity(_ capacity: Int) {
        links.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
    }

    /// The number of values.
    public var count: Int { positions.count }

    /// Whether the list holds no value.
    public var isEmpty: Bool { positions.isEmpty }

    /// Whether `key` has a value.
    public func contains(_ key: Key) -> Bool { positions[key] != nil }

    /// The value for `key`, without changing the order.
    public func peek(_ key: Key) -> Value? {
        guard let position = positions[key] else { return nil }
        return values[Int(position)]
    }

    // MARK: Slot hints

    /// The slot that holds `key`; valid until `key` is removed. Lets a caller that keeps the
    /// slot beside the key skip the hash lookup next time (see ``peek(slot:expecting:)``).
    public func slot(of key: Key) -> Int32? { positions[key] }

    /// The value in `slot` if that slot still holds `key`, without changing the order.
    public func peek(slot: Int32, expecting key: Key) -> Value? {
        guard slot >= 0, Int(slot) < links.count, links[Int(slot)].key == key else { return nil }
        return values[Int(slot)]
    }

    /// Like ``touch(_:_:)`` for a slot that may still hold `key` (a hint); falls back to
    /// the hash lookup when it does not.
    @discardableResult
    public mutating func touch<R>(slot: Int32, expecting key: Key, _ body: (inout Value) -> R) -> R? {
        guard slot >= 0, Int(slot) < links.count, links[Int(slot)].key == key else { return touch(key, body) }
        moveToNewest(slot)
        return body(&values[Int(slot)]!)
    }

    /// The cost recorded for `key`.
    public func cost(of key: Key) -> Int? {
        guard let position = positions[key] else { return nil }
        return links[Int(position)].cost
    }

    /// Makes `key` the most recently used; returns whether it was present.
    @discardableResult
    public mutating func touch(_ key: Key) -> Bool {
        guard let position = positions[key] else { return false }
        moveToNewest(position)
        return true
    }

    /// Changes the value for `key` in place (order unchanged); returns the closure's result,
    /// or `nil` when `key` is absent.
    @discardableResult
    public mutating func modify<R>(_ key: Key, _ body: (inout Value) -> R) -> R? {
        guard let position = positions[key] else { return nil }
        return body(&values[Int(position)]!)
    }

    /// Changes the value for `key` in place and makes it the most recently used, with one
    /// lookup; returns the closure's result, or `nil` when `key` is absent.
    @discardableResult
    public mutating func touch<R>(_ key: Key, _ body: (inout Value) -> R) -> R? {
        guard let position = positions[key] else { return nil }
        moveToNewest(position)
        return body(&values[Int(position)]!)
    }

    /// Inserts or replaces the value for `key` as the most recently used; returns the value
    /// it replaced.
    @discardableResult
    public mutating func insert(_ value: Value, for key: Key, cost: Int) -> Value? {
        if let position = positions[key] {
            let index = Int(position)
            let old = values[index]
            totalCost += cost - links[index].cost
            values[index] = value
            links[index].cost = cost
            moveToNewest(position)
            return old
        }
        let link = Link(key: key, cost: cost, newer: -1, older: newest)
        let position: Int32
        if let reused = freeSlots.popLast() {
            position = reused
            links[Int(reused)] = link
            values[Int(reused)] = value
        } else {
            position = Int32(links.count)
            links.append(link)
            values.append(value)
        }
        if newest >= 0 { links[Int(newest)].newer = position }
        newest = position
        if oldest < 0 { oldest = position }
        positions[key] = position
        totalCost += cost
        return nil
    }

    /// Removes the value for `key` and returns it.
    @discardableResult
    public mutating func remove(_ key: Key) -> Value? {
        guard let position = positions.removeValue(forKey: key) else { return nil }
        return release(position)
    }

    /// The least recently used key and value, without removing them.
    public var leastRecent: (key: Key, value: Value)? {
        guard oldest >= 0 else { return nil }
        return (links[Int(oldest)].key!, values[Int(oldest)]!)
    }

    /// Removes everything.
    public mutating func removeAll() {
        links.removeAll()
        values.removeAll()
        positions.removeAll()
        freeSlots.removeAll()
        newest = -1
        oldest = -1
        totalCost = 0
    }

    /// Calls `body` with every key and value, most recently used first, without copying
    /// the list.
    public func forEach(_ body: (Key, Value) throws -> Void) rethrows {
        var position = newest
        while position >= 0 {
            let index = Int(position)
            try body(links[index].key!, values[index]!)
            position = links[index].older
        }
    }

    // MARK: Links

    private mutating func release(_ position: Int32) -> Value {
        unlink(position)
        let index = Int(position)
        let value = values[index].take()!
        totalCost -= links[index].cost
        links[index] = Link(key: nil, cost: 0, newer: -1, older: -1)
        freeSlots.append(position)
        return value
    }

    private mutating func moveToNewest(_ position: Int32) {
        guard position != newest else { return }
        unlink(position)
        links[Int(position)].older = newest
        links[Int(position)].newer = -1
        if newest >= 0 { links[Int(newest)].newer = position }
        newest = position
        if oldest < 0 { oldest = position }
    }

    /// Takes a slot out of the chain, mending its neighbours and the ends.
    private mutating func unlink(_ position: Int32) {
        let newer = links[Int(position)].newer
        let older = links[Int(position)].older
        if newer >= 0 { links[Int(newer)].older = older } else { newest = older }
        if older >= 0 { links[Int(older)].newer = newer } else { oldest = newer }
        links[Int(position)].newer = -1
        links[Int(position)].older = -1
    }
}

@_spi(Benchmarks)
extension LRUList: Sendable where Key: Sendable, Value: Sendable {}

extension LRUList.Link: Sendable where Key: Sendable {}
