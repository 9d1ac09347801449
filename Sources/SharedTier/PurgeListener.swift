import Logging
import PostgresNIO
import Synchronization

/// `LISTEN`s for purges on a connection of its own — leased from the tier's pool for as long
/// as it listens — hands each purge from another instance to the tier's owner, and reconnects with backoff
/// (1 s, doubling up to the configured maximum) when the connection drops.
///
/// Purges are handed over as they arrive: key and tag purges each at once, the ones that list
/// or drop every local entry (prefix, filter, all) one after another on a worker of their own,
/// so a slow one never delays a key purge behind it. Purges only remove: in which order two of
/// them run does not change what is left.
///
/// A purge published while this instance was not listening is not delivered later: its
/// copies stay until they expire or are evicted (see docs/shared-tier.md).
final class PurgeListener: Sendable {
    private let configuration: SharedTierConfiguration
    private let client: PostgresClient
    private let logger: Logger
    private let sender: String
    private let deliver: @Sendable (SharedPurge) async -> Void
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(
        configuration: SharedTierConfiguration, client: PostgresClient, logger: Logger, sender: String,
        deliver: @escaping @Sendable (SharedPurge) async -> Void
    ) {
        self.configuration = configuration
        self.client = client
        self.logger = logger
        self.sender = sender
        self.deliver = deliver
    }

    /// Starts listening; returns once the first `LISTEN` is in place.
    /// - Throws: when no connection could be made within `limit`.
    func start(within limit: Duration) async throws {
        let listening = AsyncStream<Void>.makeStream()
        let first = Task { [listening] in
            var iterator = listening.stream.makeAsyncIterator()
            _ = await iterator.next()
        }
        task.withLock { $0 = Task { [self] in await listenForever(ready: listening.continuation) } }
        do {
            try await QueryDeadline.run(within: limit) {
                await first.value
                try Task.checkCancellation()
            }
        } catch {
            first.cancel()
            throw error
        }
    }

    /// Stops listening and closes the connection.
    func stop() async {
        let running = task.withLock { task in
            defer { task = nil }
            return task
        }
        running?.cancel()
        await running?.value
    }

    private func listenForever(ready: AsyncStream<Void>.Continuation) async {
        var backoff = Duration.seconds(1)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: configuration.channel) { notifications in
                        ready.yield()
                        backoff = .seconds(1)
                        try await deliverConcurrently(notifications.map { $0.payload })
                    }
                }
            } catch {
                guard !Task.isCancelled else { break }
                logger.debug("shared tier purge listener disconnected", metadata: ["reason": "\(SharedTier.describe(error))"])
            }
            try? await Task.sleep(for: backoff)
            backoff = min(backoff * 2, max(configuration.maximumBackoff, .seconds(1)))
        }
        ready.finish()
    }

    /// Hands over each purge of `payloads` from another instance: a key or tag purge in a task
    /// of its own at once; a prefix, filter or all-purge, which lists or drops every local
    /// entry, to one worker that carries them out one after another (so a burst of them does
    /// not hold a copy of the whole listing each). A slow purge never holds up a key or tag
    /// purge behind it. Returns when `payloads` ends and every purge handed over is done.
    private func deliverConcurrently<Payloads: AsyncSequence>(_ payloads: Payloads) async throws where Payloads.Element == String {
        let (listing, queue) = AsyncStream<SharedPurge>.makeStream()
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                for await purge in listing { await self.deliver(purge) }
            }
            defer { queue.finish() }  // however the notifications end: the worker ends after the queue
            for try await payload in payloads {
                guard let purge = purge(from: payload) else { continue }
                switch purge.scope {
                case .key, .tag: group.addTask { await self.deliver(purge) }
                case .prefix, .filter, .all: queue.yield(purge)
                }
            }
        }
    }

    /// The purge a notification carries, unless this instance sent it (or it cannot be read).
    private func purge(from payload: String) -> SharedPurge? {
        guard let purge = SharedPurge(payload: payload) else {
            logger.warning("shared tier: a purge notification this version cannot read", metadata: ["payload": "\(payload.prefix(200))"])
            return nil
        }
        return purge.sender == sender ? nil : purge
    }
}
