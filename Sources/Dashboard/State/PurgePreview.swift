public import CacheEvents
import HTTPCaching

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
    // MARK: Stored: what the purge removes, and the figures that cannot be derived from it

    /// How many of the entries each key has in each instance: the one record of what the purge
    /// removes. Its keys, instances, holders and entry count are views of this dictionary.
    public let entriesByTarget: [PurgeTarget: Int]
    /// The tag of a purge by tag; `nil` for a purge of keys.
    public let tag: String?
    /// Their stored size in bytes.
    public let bytes: Int
    /// Those served from the cache in the last minute before `now`.
    public let recentlyHit: Int
    /// What was selected, for the question: `3 marked keys`, `purge tier:disk`.
    public let selection: String

    /// Seconds an entry counts as "hit recently" for: 60.
    public static let recentSeconds = 60.0

    // MARK: Initializers

    /// The entries of `table` stored under `keys` (by every instance), at `now` (session seconds).
    public init(keys: Set<String>, table: EntryTable, now: Double, selection: String) {
        self.init(removing: table.all.filter { keys.contains($0.ref.key) }, now: now, selection: selection, tag: nil)
    }

    /// The entries of `table` stored under these keys by these instances (a filter's matches:
    /// whole keys, but only in the instances where the filter matched), at `now`.
    public init(targets: Set<PurgeTarget>, table: EntryTable, now: Double, selection: String) {
        self.init(
            removing: table.all.filter { targets.contains(PurgeTarget(key: $0.ref.key, instance: $0.instance)) }, now: now,
            selection: selection, tag: nil)
    }

    /// The entries of `table` tagged `tag` (as their events named their tags), at `now`.
    public init(tag: String, table: EntryTable, now: Double) {
        self.init(removing: table.all.filter { $0.tags.contains(tag) }, now: now, selection: "purge tag:\(tag)", tag: tag)
    }

    /// The one path every public initializer takes: counts `removed` by key and instance.
    private init(removing removed: [EntryRecord], now: Double, selection: String, tag: String?) {
        var counts: [PurgeTarget: Int] = [:]
        for entry in removed { counts[PurgeTarget(key: entry.ref.key, instance: entry.instance), default: 0] += 1 }
        entriesByTarget = counts
        bytes = removed.reduce(0) { $0.addingSaturating($1.size) }
        recentlyHit = removed.filter { entry in entry.lastAccess.map { $0 >= now - Self.recentSeconds } ?? false }.count
        self.selection = selection
        self.tag = tag
    }

    // MARK: Views of entriesByTarget

    /// Entries stored under them.
    public var entries: Int { entriesByTarget.values.reduce(0, +) }

    /// Every key in every instance the purge removes entries from.
    public var targets: Set<PurgeTarget> { Set(entriesByTarget.keys) }

    /// The keys to purge: those of the selection that have stored entries, sorted.
    public var keys: [String] { Set(entriesByTarget.keys.map(\.key)).sorted() }

    /// How many keys ``keys`` has, without sorting them (the confirmation box asks every frame).
    public var keyCount: Int { Set(entriesByTarget.keys.map(\.key)).count }

    /// In a fleet: the instances that store each key, sorted — a purge tells each instance only
    /// its own keys. (One instance: every key is instance 0's.)
    public var holders: [String: [UInt16]] {
        Dictionary(grouping: entriesByTarget.keys, by: \.key).mapValues { $0.map(\.instance).sorted() }
    }

    /// Every instance that stores an entry the purge removes, sorted.
    public var instances: [UInt16] { Set(entriesByTarget.keys.map(\.instance)).sorted() }

    // MARK: What is shown and sent

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

/// A primary key in one instance's store: what a purge of a fleet removes.
public struct PurgeTarget: Sendable, Hashable {
    /// The primary key.
    public var key: String
    /// The instance (0 with one instance).
    public var instance: UInt16

    /// The key `key` of `instance`.
    public init(key: String, instance: UInt16 = 0) {
        self.key = key
        self.instance = instance
    }
}
