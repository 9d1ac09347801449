import CacheEvents
/// `cache`: the state of the request's cache entry before and after the request.
///
/// HAR 1.2 distinguishes three cases per side, and so does this type: the field left out
/// (nothing known), `null` (the entry was not in the cache) and an object (it was).
public struct HARCache: Sendable, Hashable, Codable {
    /// One side of the cache object.
    public enum State: Sendable, Hashable {
        /// Not known: the field is left out.
        case unknown
        /// Not in the cache: the field is `null`.
        case notCached
        /// In the cache, as described.
        case cached(HARCacheEntry)

        /// The entry, when cached.
        public var entry: HARCacheEntry? {
            if case .cached(let entry) = self { return entry }
            return nil
        }
    }

    /// The entry before the request.
    public var beforeRequest: State
    /// The entry after the request.
    public var afterRequest: State
    /// A comment.
    public var comment: String?

    /// Creates a cache object (by default `{}`: nothing known).
    public init(beforeRequest: State = .unknown, afterRequest: State = .unknown, comment: String? = nil) {
        self.beforeRequest = beforeRequest
        self.afterRequest = afterRequest
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey { case beforeRequest, afterRequest, comment }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        beforeRequest = try Self.decodeState(container, .beforeRequest)
        afterRequest = try Self.decodeState(container, .afterRequest)
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try Self.encodeState(beforeRequest, .beforeRequest, into: &container)
        try Self.encodeState(afterRequest, .afterRequest, into: &container)
        try container.encodeIfPresent(comment, forKey: .comment)
    }

    private static func decodeState(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> State {
        guard container.contains(key) else { return .unknown }
        if try container.decodeNil(forKey: key) { return .notCached }
        return .cached(try container.decode(HARCacheEntry.self, forKey: key))
    }

    private static func encodeState(_ state: State, _ key: CodingKeys, into container: inout KeyedEncodingContainer<CodingKeys>) throws {
        switch state {
        case .unknown: break
        case .notCached: try container.encodeNil(forKey: key)
        case .cached(let entry): try container.encode(entry, forKey: key)
        }
    }
}

/// `beforeRequest` / `afterRequest`: one cache entry's state.
public struct HARCacheEntry: Sendable, Hashable, Codable {
    /// When the entry stops being fresh (ISO 8601), if known.
    public var expires: String?
    /// When it was last used (ISO 8601).
    public var lastAccess: String
    /// Its ETag (empty when it has none).
    public var eTag: String
    /// How many times it was served from the cache.
    public var hitCount: Int
    /// A comment.
    public var comment: String?

    /// Creates an entry state.
    public init(expires: String?, lastAccess: String, eTag: String, hitCount: Int, comment: String? = nil) {
        self.expires = expires
        self.lastAccess = lastAccess
        self.eTag = eTag
        self.hitCount = hitCount
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey { case expires, lastAccess, eTag, hitCount, comment }

    /// Tolerant: missing `lastAccess` and `eTag` read as empty, `hitCount` as 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        expires = try container.decodeIfPresent(String.self, forKey: .expires)
        lastAccess = try container.decodeIfPresent(String.self, forKey: .lastAccess) ?? ""
        eTag = try container.decodeIfPresent(String.self, forKey: .eTag) ?? ""
        hitCount = try container.decodeWholeNumberIfPresent(forKey: .hitCount) ?? 0
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }
}
