public import CacheEvents

/// What a purge of marked keys (`d`) or of a filter's entries (`:purge FILTER`) would remove,
/// shown with a y/n question before anything is sent: "N entries, X MB, Y of them hit in the
/// last minute".
///
/// A purge removes **whole keys** (every variant stored under a primary key, as
/// `ClientCommand.purge(key:)` does), so the preview counts every entry stored under the
/// selected keys — the same entries the purge then removes. A purge by tag (`:purge tag:NAME`)
/// is the exception: it removes the variants tagged NAME, one `purgeTag` command that every
/// instance sharing a tier carries out, and its preview counts exactly those variants.
public struct PurgePreview: Sendable, Hashable {
    /// The keys to purge: those of the selection that have stored entries, sorted.
    public let keys: [String]
    /// The tag of a purge by tag; `nil` for a purge of keys.
    public let tag: String?
    /// Entries stored under them.
    public let entries: Int
    /// Their stored size in bytes.
    public let bytes: Int
    /// Those served from the cache in the last minute before `now`.
    public let recentlyHit: Int
    /// What was selected, for the question: `3 marked keys`, `purge tier:disk`.
    public let selection: String

    /// Seconds an entry counts as "hit recently" for: 60.
    public static let recentSeconds = 60.0

    /// The entries of `table` stored under `keys`, at `now` (session seconds).
    public init(keys: Set<String>, table: EntryTable, now: Double, selection: String) {
        let removed = table.all.filter { keys.contains($0.ref.key) }
        self.keys = Set(removed.map(\.ref.key)).sorted()
        entries = removed.count
        bytes = removed.reduce(0) { $0 + $1.size }
        recentlyHit = removed.filter { entry in entry.lastAccess.map { $0 >= now - Self.recentSeconds } ?? false }.count
        self.selection = selection
        tag = nil
    }

    /// The entries of `table` tagged `tag` (as their events named their tags), at `now`.
    public init(tag: String, table: EntryTable, now: Double) {
        let removed = table.all.filter { $0.tags.contains(tag) }
        keys = Set(removed.map(\.ref.key)).sorted()
        entries = removed.count
        bytes = removed.reduce(0) { $0 + $1.size }
        recentlyHit = removed.filter { entry in entry.lastAccess.map { $0 >= now - Self.recentSeconds } ?? false }.count
        selection = "purge tag:\(tag)"
        self.tag = tag
    }

    /// `3 entries, 1.2 MiB, 1 of them hit in the last minute`.
    public var summary: String {
        "\(Format.count(entries)) \(entries == 1 ? "entry" : "entries"), \(Format.bytes(bytes)), "
            + "\(Format.count(recentlyHit)) of them hit in the last minute"
    }

    /// The commands that carry the purge out: one per key, or one `purgeTag`.
    public var commands: [ClientCommand] {
        if let tag { return [.purgeTag(tag: tag)] }
        return keys.map { .purge(key: $0) }
    }
}
