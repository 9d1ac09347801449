/// Where a response may be stored (URLCache's `StoragePolicy`).
public enum StoragePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Memory and disk.
    case allowed
    /// Memory only: never written to disk (for example responses to authenticated requests).
    case allowedInMemoryOnly
    /// Not stored at all.
    case notAllowed
}
