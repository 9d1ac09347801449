import Logging
import PostgresNIO
import Synchronization

/// `LISTEN`s for purges on a connection of its own — leased from the tier's pool for as long
/// as it listens — hands each purge from another instance to the tier's owner, and reconnects with backoff
/// (1 s, doubling up to the configured maximum) when the connection drops.
///
/// Purges are handed over concurrently, each as it arrives: a slow one (a prefix purge that
/// lists every local entry) does not delay the next. Two purges in flight at once remove
/// what each covers; in which order does not change what is left.
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
                        // Each purge in a task of its own: one that lists every local entry
                        // (by prefix or filter) does not hold up the key purges behind it.
                        try await withThrowingDiscardingTaskGroup { group in
                            for try await notification in notifications {
                                let payload = notification.payload
                                group.addTask { await self.handle(payload) }
                            }
                        }
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

    private func handle(_ payload: String) async {
        guard let purge = SharedPurge(payload: payload) else {
            return logger.warning("shared tier: a purge notification this version cannot read", metadata: ["payload": "\(payload.prefix(200))"])
        }
        guard purge.sender != sender else { return }
        await deliver(purge)
    }
}
