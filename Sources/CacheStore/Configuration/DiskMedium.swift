/// Where a store's disk tier keeps its entry files (``StoreConfiguration/diskMedium``).
public enum DiskMedium: Sendable, Hashable {
    /// Real files in ``StoreConfiguration/directory``, written so that a crash at any
    /// instant leaves a store the next open accepts. The default.
    case files
    /// The process's memory: a model of a disk tier for simulations (`replay --what-if`),
    /// which need the tier's capacities, eviction and index — the index is still a SQLite
    /// file in ``StoreConfiguration/directory`` — but not its bytes on a device. Nothing
    /// survives the store. A long run of zeros in a file (the placeholder body of a log that
    /// did not record bodies) is kept as a count. Give it a directory of its own, fresh: files
    /// it did not write are read and removed through the real file system, unchecked.
    case simulated
}
