/// The lookup verdicts (`fresh`, `stale`, `miss`, `bypass`).
public enum LookupVerdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// A fresh stored response will be served.
    case fresh
    /// A stored response exists but is stale: served stale, revalidated, or (without a
    /// validator) fetched again in full.
    case stale
    /// Nothing usable is stored.
    case miss
    /// The cache is not consulted.
    case bypass
}
