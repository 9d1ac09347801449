package import HTTPCaching
import Foundation

/// A purge as it travels on the `NOTIFY` channel: what it covered and which instance did it.
///
/// The payload is JSON, `{"origin":"host:pid","sender":"<UUID>","scope":"key","key":"GET https://…"}`,
/// `{"origin":…,"sender":…,"scope":"tag","match":"product-42"}` (also `prefix` and `filter`
/// with `match`) or `{"origin":…,"sender":…,"scope":"all"}`; `sender` tells a tier its own
/// purges apart (two clients in one process share a default origin name). PostgreSQL limits a
/// payload to 8,000 bytes: a key, tag, prefix or filter too long for that travels as `all`
/// (every instance drops more than it had to, never less).
package struct SharedPurge: Sendable, Equatable {
    /// What a purge covered.
    package enum Scope: Sendable, Equatable {
        /// Every variant of one primary key.
        case key(CacheKey)
        /// Every entry tagged with a tag (its `Surrogate-Key`).
        case tag(String)
        /// Every entry whose URL starts with a prefix.
        case prefix(String)
        /// Every entry a filter expression (TrafficFilter's language) matches; each instance
        /// evaluates it over its own entries.
        case filter(String)
        /// Everything.
        case all
    }

    /// What it covered.
    package var scope: Scope
    /// The instance that purged (``SharedTierConfiguration/instanceName``).
    package var origin: String
    /// The tier that published it: a random id per ``SharedTier``.
    var sender: String

    /// A purge of `scope` by `origin`, published by the tier `sender`.
    init(scope: Scope, origin: String, sender: String) {
        self.scope = scope
        self.origin = origin
        self.sender = sender
    }

    /// The longest payload written; PostgreSQL's own limit is 8,000 bytes.
    static let maximumPayload = 7_900

    private struct Wire: Codable {
        var origin: String
        var sender: String
        var scope: String
        var key: String?
        var match: String?
    }

    /// The `NOTIFY` payload.
    var payload: String {
        var wire = Wire(origin: origin, sender: sender, scope: "all", key: nil, match: nil)
        switch scope {
        case .key(let key): (wire.scope, wire.key) = ("key", key.description)
        case .tag(let tag): (wire.scope, wire.match) = ("tag", tag)
        case .prefix(let prefix): (wire.scope, wire.match) = ("prefix", prefix)
        case .filter(let filter): (wire.scope, wire.match) = ("filter", filter)
        case .all: break
        }
        if let text = Self.encode(wire), text.utf8.count <= Self.maximumPayload { return text }
        return Self.encode(Wire(origin: String(origin.prefix(200)), sender: sender, scope: "all", key: nil, match: nil))
            ?? #"{"origin":"?","sender":"?","scope":"all"}"#
    }

    /// A payload read back; `nil` for anything this version did not write.
    init?(payload: String) {
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(payload.utf8)) else { return nil }
        switch wire.scope {
        case "all": scope = .all
        case "key":
            guard let key = wire.key.flatMap(CacheKey.init(parsing:)) else { return nil }
            scope = .key(key)
        case "tag", "prefix", "filter":
            guard let match = wire.match, !match.isEmpty else { return nil }
            scope = wire.scope == "tag" ? .tag(match) : wire.scope == "prefix" ? .prefix(match) : .filter(match)
        default: return nil
        }
        origin = wire.origin
        sender = wire.sender
    }

    private static func encode(_ wire: Wire) -> String? {
        (try? JSONEncoder().encode(wire)).map { String(decoding: $0, as: UTF8.self) }
    }
}
