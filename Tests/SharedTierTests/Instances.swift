import CacheEvents
import CacheStore
import CachingClient
import DemoOrigin
import Foundation
import SharedTier
import Synchronization

/// Caching clients sharing one tier in front of one real demo origin, all stopped by
/// ``stop()`` — or, when a test ends early, by `deinit` (AsyncHTTPClient traps when a client
/// is released while running).
final class Instances: Sendable {
    let origin: DemoOrigin
    let clients: [CachingClient]

    private init(origin: DemoOrigin, clients: [CachingClient]) {
        self.origin = origin
        self.clients = clients
    }

    deinit {
        let (origin, clients) = (origin, clients)
        Task {
            for client in clients { try? await client.shutdown() }
            try? await origin.stop()
        }
    }

    /// `count` clients on `tier`, named `a`, `b`, …; `configure` adjusts each.
    static func start(
        _ count: Int, tier: SharedTierConfiguration, configure: (inout CachingClientConfiguration) -> Void = { _ in }
    ) async throws -> Instances {
        let origin = try await DemoOrigin.start()
        var clients: [CachingClient] = []
        do {
            for index in 0..<count {
                var configuration = CachingClientConfiguration()
                configuration.sharedTier = tier
                configuration.sharedTier?.instanceName = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index)))
                configure(&configuration)
                clients.append(try await CachingClient(configuration: configuration))
            }
        } catch {
            for client in clients { try? await client.shutdown() }
            try? await origin.stop()
            throw error
        }
        return Instances(origin: origin, clients: clients)
    }

    func url(_ path: String) -> String { origin.baseURL + path }

    /// `count` clients on a fresh tier of `capacity` bytes that evicts `evictionBatchSize`
    /// entries at a time, and that tier.
    static func start(
        _ count: Int, boundedTo capacity: Int, evictionBatchSize: Int
    ) async throws -> (Instances, SharedTierConfiguration) {
        var tier = try await TestPostgres.freshDatabase(instance: "unused")
        tier.capacity = capacity
        tier.evictionBatchSize = evictionBatchSize
        return (try await start(count, tier: tier), tier)
    }

    func stop() async throws {
        for client in clients { try await client.shutdown() }
        try await origin.stop()
    }
}

/// Collects a client's events from now on.
final class EventLog: Sendable {
    private final class Seen: Sendable {
        let kinds = Mutex<[CacheEventKind]>([])
    }

    private let seen: Seen
    private let task: Task<Void, Never>

    init(_ client: CachingClient) async {
        let subscription = await client.subscribe(.lossless(bufferSize: 100_000), snapshot: false)
        let seen = Seen()
        self.seen = seen
        task = Task {
            for await event in subscription { seen.kinds.withLock { $0.append(event.kind) } }
        }
    }

    deinit { task.cancel() }

    var kinds: [CacheEventKind] { seen.kinds.withLock { $0 } }

    /// The `error` events' messages that speak of the shared tier.
    var sharedTierWarnings: [String] {
        kinds.compactMap { kind in
            if case .error(let info) = kind, info.message.contains("shared tier") { return info.message }
            return nil
        }
    }

    /// The `purged` events so far.
    var purges: [Purged] {
        kinds.compactMap { kind in
            if case .purged(let purged) = kind { return purged }
            return nil
        }
    }

    /// Waits until `condition` holds, checking every 10 ms, at most `limit`; whether it held.
    func waitUntil(within limit: Duration, _ condition: (EventLog) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition(self)
    }
}
