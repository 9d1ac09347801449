/// Usage figures of a ``CacheStore`` at one moment.
public struct StoreStats: Sendable, Hashable, Codable {
    /// Bytes held in memory.
    public var memoryUsed: Int
    /// The memory capacity in bytes.
    public var memoryCapacity: Int
    /// Bytes held on disk (as accounted in the index).
    public var diskUsed: Int
    /// The disk capacity in bytes (all namespaces together).
    public var diskCapacity: Int
    /// Distinct entries in the store.
    public var entryCount: Int
    /// Entries with a copy in memory.
    public var memoryEntryCount: Int
    /// Entries with a copy on disk.
    public var diskEntryCount: Int
    /// Namespaces whose disk failed and that keep entries in memory only.
    public var degradedNamespaces: [String]
}
