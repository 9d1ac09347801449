import HTTPCaching

/// Usage figures of a ``ResponseStore`` at one moment; also the payload of the `storeStats`
/// event. In events and logs it is written as `memoryUsed`, `memoryCapacity`, `diskUsed`,
/// `diskCapacity` and `entries` (``entryCount``); the per-tier counts and degraded namespaces
/// stay in the process.
public struct StoreStats: Sendable, Hashable, Codable {
    /// Bytes held in memory.
    public var memoryUsed: Int
    /// The memory capacity in bytes.
    public var memoryCapacity: Int
    /// Bytes held on disk (as accounted in the index).
    public var diskUsed: Int
    /// The disk capacity in bytes (all namespaces together; 0 without a disk tier).
    public var diskCapacity: Int
    /// Distinct entries in the store.
    public var entryCount: Int
    /// Entries with a copy in memory.
    public var memoryEntryCount: Int
    /// Entries with a copy on disk.
    public var diskEntryCount: Int
    /// Namespaces whose disk failed and that keep entries in memory only.
    public var degradedNamespaces: [String]

    /// Figures from their parts; the per-tier counts and degraded namespaces default to none.
    public init(
        memoryUsed: Int, memoryCapacity: Int, diskUsed: Int, diskCapacity: Int, entryCount: Int, memoryEntryCount: Int = 0,
        diskEntryCount: Int = 0, degradedNamespaces: [String] = []
    ) {
        self.memoryUsed = memoryUsed
        self.memoryCapacity = memoryCapacity
        self.diskUsed = diskUsed
        self.diskCapacity = diskCapacity
        self.entryCount = entryCount
        self.memoryEntryCount = memoryEntryCount
        self.diskEntryCount = diskEntryCount
        self.degradedNamespaces = degradedNamespaces
    }

    private enum CodingKeys: String, CodingKey {
        case memoryUsed, memoryCapacity, diskUsed, diskCapacity, entryCount = "entries"
    }

    /// Reads the five written figures; the per-tier counts read as zero.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            memoryUsed: try container.decode(Int.self, forKey: .memoryUsed),
            memoryCapacity: try container.decode(Int.self, forKey: .memoryCapacity),
            diskUsed: try container.decode(Int.self, forKey: .diskUsed),
            diskCapacity: try container.decode(Int.self, forKey: .diskCapacity),
            entryCount: try container.decode(Int.self, forKey: .entryCount))
    }

    /// Writes the five figures events carry.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(memoryUsed, forKey: .memoryUsed)
        try container.encode(memoryCapacity, forKey: .memoryCapacity)
        try container.encode(diskUsed, forKey: .diskUsed)
        try container.encode(diskCapacity, forKey: .diskCapacity)
        try container.encode(entryCount, forKey: .entryCount)
    }
}

extension StoreStats {
    /// Two stores' figures together (a fleet's stores side by side): every figure added, the
    /// degraded namespaces of both, `lhs`'s first.
    ///
    /// ```swift
    /// let fleet = [web, api].reduce(StoreStats.zero, +)
    /// ```
    public static func + (lhs: StoreStats, rhs: StoreStats) -> StoreStats {
        // Saturating: the figures come from other instances (an attach socket), and the
        // capacities may each be as large as 2^63 − 1 bytes.
        StoreStats(
            memoryUsed: lhs.memoryUsed.addingSaturating(rhs.memoryUsed), memoryCapacity: lhs.memoryCapacity.addingSaturating(rhs.memoryCapacity),
            diskUsed: lhs.diskUsed.addingSaturating(rhs.diskUsed), diskCapacity: lhs.diskCapacity.addingSaturating(rhs.diskCapacity),
            entryCount: lhs.entryCount.addingSaturating(rhs.entryCount),
            memoryEntryCount: lhs.memoryEntryCount.addingSaturating(rhs.memoryEntryCount),
            diskEntryCount: lhs.diskEntryCount.addingSaturating(rhs.diskEntryCount),
            degradedNamespaces: lhs.degradedNamespaces + rhs.degradedNamespaces)
    }

    /// No store: every figure zero (what ``+(_:_:)`` starts a sum from).
    public static let zero = StoreStats(memoryUsed: 0, memoryCapacity: 0, diskUsed: 0, diskCapacity: 0, entryCount: 0)
}
