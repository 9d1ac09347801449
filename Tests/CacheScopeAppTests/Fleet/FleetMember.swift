import CacheAttach
import CacheEvents
import CacheStore
import Foundation
import HTTPCaching
import HTTPTypes

/// One app of a fleet for the fleet tests: a dictionary of stored keys published on a real
/// attach socket, answering purges for real against its own entries (so a test can check what
/// each instance was told through the instance's own state).
actor FleetMember {
    let bus = EventBus()
    let path: String
    let processName: String
    private(set) var keys: Set<String> = []
    private(set) var received: [ClientCommand] = []
    private var server: AttachServer?

    init(path: String, processName: String) {
        self.path = path
        self.processName = processName
    }

    /// Starts publishing (again, after ``stop()``).
    func start() async throws {
        server = try await AttachServer.start(
            events: bus, snapshot: { await self.snapshot() }, commands: { await self.perform($0) }, path: path,
            processName: processName)
    }

    /// Stops publishing: every attached dashboard's connection closes.
    func stop() async {
        await server?.stop()
        server = nil
    }

    /// Stores `key`, with a request that missed and stored it (request IDs start at 1 in every
    /// member, as they do in every process).
    func request(_ key: String, id: UInt64) {
        keys.insert(key)
        let url = String(key.dropFirst(4))
        bus.publish(.requestStarted(RequestStarted(method: "GET", url: url, cacheKey: key, policy: "protocol", headers: [:])), requestID: id)
        bus.publish(.stored(Stored(entry: EntryRef(key: key), tier: .memory, size: 100, ttl: 60, etag: nil, lastModified: nil, status: 200)))
        bus.publish(.requestFinished(RequestFinished(
            status: 200, latency: 0.01, bytesFromNetwork: 100, bytesFromCache: 0, outcome: .miss, reason: "not in cache")), requestID: id)
    }

    /// Starts request `id` for `key` and leaves it open (a slow origin), as far as its lookup.
    func open(_ key: String, id: UInt64) {
        let url = String(key.dropFirst(4))
        bus.publish(.requestStarted(RequestStarted(method: "GET", url: url, cacheKey: key, policy: "protocol", headers: [:])), requestID: id)
        bus.publish(.lookup(Lookup(verdict: .miss, reason: "not in cache")), requestID: id)
    }

    private func snapshot() -> [CacheEventKind] {
        let entries = keys.sorted().map { key in
            EntryInfo(entry: EntryRef(key: key), tier: .memory, size: 100, ttl: 60, age: 0, etag: nil, lastModified: nil, hits: 0, idle: 0, status: 200)
        }
        return [.entries(EntriesSnapshot(entries: entries))]
    }

    private func perform(_ command: ClientCommand) -> CommandResult {
        received.append(command)
        switch command {
        case .purge(let key):
            guard keys.remove(key) != nil else { return CommandResult(succeeded: false, message: "nothing stored under \(key)") }
            bus.publish(.purged(Purged(scope: PurgeScope(word: "key", key: key, variant: nil, since: nil), count: 1)))
            return CommandResult(succeeded: true, message: "purged 1 entry")
        case .purgeAll:
            let count = keys.count
            keys.removeAll()
            bus.publish(.purged(Purged(scope: .all, count: count)))
            return CommandResult(succeeded: true, message: "purged \(count) entries")
        default:
            return CommandResult(succeeded: true, message: "\(command.name) done")
        }
    }
}
