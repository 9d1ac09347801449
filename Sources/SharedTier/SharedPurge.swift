package import HTTPCaching
import Foundation

/// A purge as it travels on the `NOTIFY` channel: what it covered and which instance did it.
///
/// The payload is JSON, `{"origin":"host:pid","sender":"<UUID>","scope":"key","key":"GET https://…"}`
/// or `{"origin":…,"sender":…,"scope":"all"}`; `sender` tells a tier its own purges apart (two
/// clients in one process share a default origin name). PostgreSQL limits a payload to 8,000 bytes: a key too long
/// for that travels as `all` (every instance drops more than it had to, never less).
package struct SharedPurge: Sendable, Equatable {
    /// What a purge covered.
    package enum Scope: Sendable, Equatable {
        /// Every variant of one primary key.
        case key(CacheKey)
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
    }

    /// The `NOTIFY` payload.
    var payload: String {
        var wire = Wire(origin: origin, sender: sender, scope: "all", key: nil)
        if case .key(let key) = scope {
            wire.scope = "key"
            wire.key = key.description
        }
        if let text = Self.encode(wire), text.utf8.count <= Self.maximumPayload { return text }
        return Self.encode(Wire(origin: String(origin.prefix(200)), sender: sender, scope: "all", key: nil))
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
        default: return nil
        }
        origin = wire.origin
        sender = wire.sender
    }

    private static func encode(_ wire: Wire) -> String? {
        (try? JSONEncoder().encode(wire)).map { String(decoding: $0, as: UTF8.self) }
    }
}
