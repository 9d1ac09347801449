/// Where a stored entry lives.
public enum EntryTier: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Only in memory (lost when the process ends).
    case memory
    /// Only on disk (a lookup reads it and promotes it to memory).
    case disk
    /// In memory and on disk.
    case both

    /// Whether the entry has a copy in memory.
    public var includesMemory: Bool { self != .disk }

    /// Whether the entry has a copy on disk.
    public var includesDisk: Bool { self != .memory }

    /// The tier made of the given copies, or `nil` when there is none.
    public init?(memory: Bool, disk: Bool) {
        switch (memory, disk) {
        case (true, true): self = .both
        case (true, false): self = .memory
        case (false, true): self = .disk
        case (false, false): return nil
        }
    }

    public var description: String { rawValue }
}
