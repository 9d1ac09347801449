import CacheStore
import CacheAttach
import CacheEvents
import SessionLog

/// A small app for the attach tests: a dictionary of "stored" entries that publishes the same
/// events a caching client would, answers purge / refresh / reload for real against its
/// entries, and provides the snapshot a late dashboard receives.
actor MiniStore {
    let bus = EventBus()
    private(set) var entries: [String: EntryInfo] = [:]
    private(set) var receivedCommands: [ClientCommand] = []
    /// How long each command takes (to test timeouts).
    var commandDelay: Duration = .zero

    func setCommandDelay(_ delay: Duration) { commandDelay = delay }

    /// Stores an entry and publishes `stored`.
    func store(_ key: String, size: Int = 100) {
        let entry = EntryInfo(
            entry: EntryRef(key: key), tier: .memory, size: size, ttl: 60, age: 0, etag: "\"\(key.count)\"",
            lastModified: nil, hits: 0, idle: 0, status: 200
        )
        entries[key] = entry
        bus.publish(.stored(Stored(entry: entry.entry, tier: .memory, size: size, ttl: 60, etag: entry.etag, lastModified: nil, status: 200)))
    }

    /// The store's state as events: every entry, then the statistics.
    func snapshot() -> [CacheEventKind] {
        let sorted = entries.values.sorted { $0.entry.key < $1.entry.key }
        let used = sorted.reduce(0) { $0 + $1.size }
        return [
            .entries(EntriesSnapshot(entries: sorted)),
            .storeStats(StoreStats(memoryUsed: used, memoryCapacity: 1 << 20, diskUsed: 0, diskCapacity: 0, entryCount: sorted.count)),
        ]
    }

    /// Performs a dashboard's command against the entries.
    func perform(_ command: ClientCommand) async -> CommandResult {
        receivedCommands.append(command)
        if commandDelay > .zero { try? await Task.sleep(for: commandDelay) }  // a slow app: the behaviour under test
        bus.publish(.command(CommandInfo(name: command.name, key: command.key)))
        switch command {
        case .purge(let key):
            guard entries.removeValue(forKey: key) != nil else {
                return CommandResult(succeeded: false, message: "nothing stored under \(key)")
            }
            bus.publish(.purged(Purged(scope: PurgeScope(word: "key", key: key, variant: nil, since: nil), count: 1)))
            return CommandResult(succeeded: true, message: "purged 1 entry")
        case .purgeAll:
            let count = entries.count
            entries.removeAll()
            bus.publish(.purged(Purged(scope: .all, count: count)))
            return CommandResult(succeeded: true, message: "purged \(count) entries")
        case .purgeExpired:
            bus.publish(.purged(Purged(scope: .expired, count: 0)))
            return CommandResult(succeeded: true, message: "purged 0 entries")
        case .purgeTag, .purgePrefix, .purgeFilter:
            return CommandResult(succeeded: false, message: "\(command.name): this store keeps no tags or URLs to match")
        case .refresh(let key, _), .reload(let key, _):
            guard entries[key] != nil else { return CommandResult(succeeded: false, message: "nothing stored under \(key)") }
            return CommandResult(succeeded: true, message: "\(command.name) \(key): 304, fresh for 60s")
        }
    }

    /// Publishes this store on an attach socket.
    func publish(at path: String?, processName: String = "ministore", bufferSize: Int = 10_000) async throws -> AttachServer {
        try await AttachServer.start(
            events: bus,
            snapshot: { await self.snapshot() },
            commands: { await self.perform($0) },
            path: path,
            processName: processName,
            bufferSize: bufferSize
        )
    }
}
