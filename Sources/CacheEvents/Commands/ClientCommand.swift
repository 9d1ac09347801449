/// A command that steers the cache: what the dashboard's keys send, in process or over the
/// attach socket. Keys are primary cache keys as shown in events (`GET https://…`) or URLs.
///
/// Its `Codable` form names the case and its values: `{"purge":{"key":"GET https://…"}}`,
/// `{"purgeTag":{"tag":"product-42"}}`, `{"purgeAll":{}}`.
public enum ClientCommand: Sendable, Hashable, Codable {
    /// Remove every variant stored under a key.
    case purge(key: String)
    /// Remove every entry tagged `tag` (its `Surrogate-Key`), here and, through the shared
    /// tier, on every instance.
    case purgeTag(tag: String)
    /// Remove every entry whose URL starts with `prefix`, here and on every instance.
    case purgePrefix(prefix: String)
    /// Remove every entry the filter expression matches (the TrafficFilter language, as
    /// `:purge FILTER` takes it); every instance evaluates it over its own entries.
    case purgeFilter(filter: String)
    /// Remove everything.
    case purgeAll
    /// Remove every entry whose freshness has run out.
    case purgeExpired
    /// Revalidate a stored entry now with a conditional request (its variant, if given).
    case refresh(key: String, variant: String?)
    /// Fetch a key again unconditionally and store the answer.
    case reload(key: String, variant: String?)

    /// The command's name in events (`purge`, `purgeTag`, `purgePrefix`, `purgeFilter`,
    /// `purgeAll`, `purgeExpired`, `refresh`, `reload`).
    public var name: String {
        switch self {
        case .purge: return "purge"
        case .purgeTag: return "purgeTag"
        case .purgePrefix: return "purgePrefix"
        case .purgeFilter: return "purgeFilter"
        case .purgeAll: return "purgeAll"
        case .purgeExpired: return "purgeExpired"
        case .refresh: return "refresh"
        case .reload: return "reload"
        }
    }

    /// The key the command targets, if any.
    public var key: String? {
        switch self {
        case .purge(let key), .refresh(let key, _), .reload(let key, _): return key
        case .purgeTag, .purgePrefix, .purgeFilter, .purgeAll, .purgeExpired: return nil
        }
    }

    /// The tag, URL prefix or filter text of a `purgeTag`, `purgePrefix` or `purgeFilter`.
    public var match: String? {
        switch self {
        case .purgeTag(let text), .purgePrefix(let text), .purgeFilter(let text): return text
        case .purge, .purgeAll, .purgeExpired, .refresh, .reload: return nil
        }
    }
}

/// What a command did, in words for a status line.
public struct CommandResult: Sendable, Hashable, Codable {
    /// Whether it did what was asked.
    public let succeeded: Bool
    /// What happened (`purged 2 entries`, `refresh: 304, fresh for 60s`, …).
    public let message: String

    /// Creates a result.
    public init(succeeded: Bool, message: String) {
        self.succeeded = succeeded
        self.message = message
    }
}
