import CacheEvents
/// Every field name a session-log event line can carry, across all kinds (the names the
/// payloads' `Codable` conformances use). ``EventLineParser`` files each value it meets under
/// one of these; unknown names are ignored.
enum EventField: Int, CaseIterable {
    case seq, t, req, kind
    case method, url, cacheKey, policy, headers
    case verdict, reason, age, ttl
    case ifNoneMatch, ifModifiedSince, background, freshened
    case status, source, bytes, outcome
    case entry, tier, size, etag, lastModified, key, variant
    case count, scope, since, origin, leaderID, match, tags
    case latency, bytesFromNetwork, bytesFromCache, coalesced
    case message
    case memoryUsed, memoryCapacity, diskUsed, diskCapacity, entries
    case name
    case originError, originStatus

    private static let table = NameTable(allCases.map { String(describing: $0) })

    /// The field named by `name` (a key's raw bytes), or `nil` for an unknown name.
    static func lookup(_ name: UnsafeBufferPointer<UInt8>) -> EventField? {
        table.lookup(name).flatMap(EventField.init(rawValue:))
    }
}
