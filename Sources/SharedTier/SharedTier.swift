package import CacheStore
import ConnectionErrors
import Foundation
package import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import Synchronization

/// The shared cache tier: entries in PostgreSQL that every instance configured with the same
/// database reads and writes behind its own memory and disk tiers, and a `LISTEN`/`NOTIFY`
/// channel that carries purges to every instance.
///
/// The caching client owns one (``SharedTierConfiguration`` in its configuration) and asks it
/// on a local miss, writes to it in the background after storing, and purges through it. It
/// fails open: no method throws once it is connected; a failure or a query slower than
/// ``SharedTierConfiguration/queryTimeout`` is a miss, starts an outage (one warning), and the
/// tier is probed again with backoff (``TierHealth``).
package final class SharedTier: Sendable {
    /// One stored variant as a lookup reads it: its id, metadata and body.
    typealias LookupRow = (id: ByteBuffer, metadata: ByteBuffer, body: ByteBuffer)

    /// What happens around the tier that its owner reports: an outage starting or ending, a
    /// purge from another instance.
    package struct Observer: Sendable {
        /// An outage started (once per outage), with why.
        package var warning: @Sendable (String) -> Void
        /// The tier answers again after an outage.
        package var recovered: @Sendable () -> Void
        /// Another instance purged; drop the local copies.
        package var purge: @Sendable (SharedPurge) async -> Void

        /// An observer of the three.
        package init(
            warning: @escaping @Sendable (String) -> Void, recovered: @escaping @Sendable () -> Void,
            purge: @escaping @Sendable (SharedPurge) async -> Void
        ) {
            self.warning = warning
            self.recovered = recovered
            self.purge = purge
        }
    }

    let configuration: SharedTierConfiguration
    let codec: SealedEntryCodec
    let client: PostgresClient
    let logger: Logger
    let observer: Observer
    let health: TierHealth
    /// Tells this tier's own purges apart on the channel.
    let senderID: String
    let writes = PendingWrites()
    /// Entries read whose last use is not yet written (``markUsed(_:)``).
    let touches = PendingTouches()
    /// Concurrent lookups, sent together: one query under way at a time, so that a lone
    /// request never waits and a busy instance's lookups share queries (docs/shared-tier.md).
    let lookups: LookupBatcher<[LookupRow]>
    /// Whether an eviction pass is running (one at a time per instance).
    let evicting = Mutex(false)
    /// When a write is followed by an eviction pass.
    let capacityChecks: Mutex<CapacityCheckSchedule>
    /// Purges this instance made while the tier could not be reached (``UnsentPurge``), and
    /// the task sending them.
    let unsentPurges = Mutex(UnsentPurges())
    /// What the tags of a row are (its `Surrogate-Key`), for an unsent purge by tag.
    let storeConfiguration: StoreConfiguration
    private let runTask: Task<Void, Never>
    private let listener: PurgeListener

    /// Connects, creates or migrates the schema, and starts listening for purges.
    /// - Throws: ``SharedTierError`` for a bad configuration, an unreachable server (within
    ///   ``SharedTierConfiguration/connectTimeout``), or a schema it cannot use.
    package static func connect(
        _ configuration: SharedTierConfiguration, store: StoreConfiguration, logger: Logger, observer: Observer
    ) async throws(SharedTierError) -> SharedTier {
        try configuration.validate()
        // Connections of its own first: the pool retries a refused connection or a rejected
        // login until the deadline and then says only that it timed out, where this says why
        // (`connection refused`, `role "x" does not exist`, `database "y" does not exist`).
        do {
            try await probe(configuration, logger: logger)
        } catch {
            throw .unreachable(configuration.displayURL, reason: describe(error))
        }
        let tier = SharedTier(configuration, store: store, logger: logger, observer: observer)
        do {
            try await QueryDeadline.run(within: configuration.connectTimeout) {
                try await tier.client.perform("SELECT 1")
            }
        } catch {
            await tier.shutdown()
            throw .unreachable(configuration.displayURL, reason: describe(error))
        }
        do {
            try await SharedTierSchema.migrate(tier.client, logger: logger, url: configuration.displayURL)
            try await tier.listener.start(within: configuration.connectTimeout)
        } catch let error as SharedTierError {
            await tier.shutdown()
            throw error
        } catch {
            await tier.shutdown()
            throw .unreachable(configuration.displayURL, reason: describe(error))
        }
        return tier
    }

    private init(_ configuration: SharedTierConfiguration, store: StoreConfiguration, logger: Logger, observer: Observer) {
        self.configuration = configuration
        self.logger = logger
        self.observer = observer
        storeConfiguration = store
        codec = SealedEntryCodec(configuration: store)
        // One query at a time did better than two (docs/shared-tier.md#performance); eight keys
        // bound what one query may carry, so that a batch of large bodies is not much slower
        // than one of them.
        lookups = LookupBatcher(limit: 1, maximumBatch: 8, maximumWait: configuration.queryTimeout)
        health = TierHealth(maximumBackoff: configuration.maximumBackoff)
        capacityChecks = Mutex(CapacityCheckSchedule(capacity: configuration.capacity))
        var pool = PostgresClient.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: Self.tls(configuration.tls))
        pool.options.connectTimeout = configuration.connectTimeout
        pool.options.maximumConnections = 8
        // PostgresNIO logs each failed connection attempt at info: on a command's stderr that
        // would bury the one error the tier reports (an outage's warning, or the start's error).
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .warning)
        let client = PostgresClient(configuration: pool, backgroundLogger: poolLogger)
        self.client = client
        runTask = Task { await client.run() }
        let sender = UUID().uuidString
        senderID = sender
        listener = PurgeListener(configuration: configuration, client: client, logger: logger, sender: sender, deliver: observer.purge)
    }

    /// Writes the marks of entries read, waits for the writes in flight, stops listening and
    /// closes the connections.
    package func shutdown() async {
        let sender = unsentPurges.withLock { $0.sender }
        sender?.cancel()
        await sender?.value
        await touches.close()
        await flushTouches()
        await writes.finish()
        await listener.stop()
        runTask.cancel()
        await runTask.value
    }

    // MARK: Failing open

    /// `operation` within the query timeout (or `limit`: a large write's), or `nil` — a miss —
    /// when the tier is in an outage, fails or is too slow. A failure that starts an outage is
    /// reported once.
    func attempt<T: Sendable>(
        _ what: String, within limit: Duration? = nil, _ operation: @escaping @Sendable (PostgresClient) async throws -> T
    ) async -> T? {
        guard health.mayTry(probeTimeout: configuration.queryTimeout) else { return nil }
        let client = client
        do {
            let result = try await QueryDeadline.run(within: limit ?? configuration.queryTimeout) { try await operation(client) }
            if health.succeeded() {
                logger.info("shared tier answers again", metadata: ["url": "\(configuration.displayURL)"])
                observer.recovered()
            }
            return result
        } catch is CancellationError {
            return nil
        } catch {
            let reason = Self.describe(error)
            if health.failed(because: Self.failureKind(error)) {
                let message = "shared tier \(configuration.displayURL) unavailable (\(what): \(reason)); requests go on without it, retrying with backoff"
                // In the log too, where its recovery is written: once per outage, as the event.
                logger.warning("\(message)")
                observer.warning(message)
            }
            logger.debug("shared tier \(what) failed", metadata: ["reason": "\(reason)"])
            return nil
        }
    }

    /// What failed inside a transaction (`PostgresTransactionError` describes itself as a
    /// dump of every part); any other error as it is.
    static func innermost(_ error: any Error) -> any Error {
        guard let transaction = error as? PostgresTransactionError else { return error }
        return transaction.closureError ?? transaction.beginError ?? transaction.commitError ?? transaction.rollbackError ?? error
    }

    /// PostgreSQL's SQLSTATE for a failure it reported (`42501`: not allowed), inside a
    /// transaction's too.
    static func sqlState(of error: any Error) -> String? {
        (innermost(error) as? PSQLError)?.serverInfo?[.sqlState]
    }

    /// A failure's kind, stable from one occurrence to the next (an outage is warned of once
    /// a minute per kind): too slow, PostgreSQL's SQLSTATE, or the failure in words — never a
    /// figure that changes with the statement (a write's time limit grows with its size).
    static func failureKind(_ error: any Error) -> String {
        if innermost(error) is QueryDeadline.TimedOut { return "no answer in time" }
        if let state = sqlState(of: error) { return "SQLSTATE " + state }
        return describe(error)
    }

    /// A failure in words: PostgreSQL's own message where there is one (`PSQLError`'s
    /// description hides it).
    static func describe(_ error: any Error) -> String {
        if error is PostgresTransactionError {
            let inner = innermost(error)
            return inner is PostgresTransactionError ? "a transaction failed" : describe(inner)
        }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            if let underlying = error.underlying { return ConnectionFailureText.describe(underlying) }
            switch error.code {
            case .serverClosedConnection: return "the server closed the connection"
            case .sslUnsupported: return "the server does not offer TLS (add ?sslmode=disable to use none)"
            case .authMechanismRequiresPassword: return "the server asks for a password and the URL gives none"
            case .unsupportedAuthMechanism: return "the server asks for a login method this client does not support"
            default: return "\(error.code)"
            }
        }
        return String(describing: error)
    }

    /// Connects outside the pool and closes again; after a failure that may pass (the server
    /// refuses connections, closes them, or is still starting up: a database started beside
    /// the app) tries again, 100 ms later and then less often, until `connectTimeout`. Throws
    /// the last failure then, and at once one that will not pass (an unknown user or database,
    /// a password refused, TLS the server does not offer).
    private static func probe(_ configuration: SharedTierConfiguration, logger: Logger) async throws {
        let deadline = ContinuousClock.now + configuration.connectTimeout
        let tls = try connectionTLS(configuration.tls)  // once: a TLS context loads the trust roots
        var pause = Duration.milliseconds(100)
        var lastFailure: (any Error)?
        while true {
            let left = deadline - ContinuousClock.now
            // A pause that overran the deadline (a busy machine) ends with the last failure,
            // not with an attempt given too little time to say anything but that it timed out.
            if let lastFailure, left < .milliseconds(100) { throw lastFailure }
            do {
                return try await QueryDeadline.run(within: max(left, .milliseconds(100))) { try await connectOnce(configuration, tls: tls, logger: logger) }
            } catch is QueryDeadline.TimedOut {
                // The attempt had what was left of the deadline; the user set the whole of it.
                // A failure before it (connections refused all along) says more.
                throw lastFailure ?? QueryDeadline.TimedOut(limit: configuration.connectTimeout)
            } catch {
                guard mayPass(error), ContinuousClock.now + pause < deadline else { throw error }
                lastFailure = error
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .seconds(1))
            }
        }
    }

    /// Whether a failed connection may succeed if tried again soon.
    private static func mayPass(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] { return state == "57P03" }  // cannot_connect_now: starting up
        return error.code == .connectionError || error.code == .serverClosedConnection
    }

    /// Connects once, outside the pool, and closes again: throws what stopped the connection.
    private static func connectOnce(
        _ configuration: SharedTierConfiguration, tls: PostgresConnection.Configuration.TLS, logger: Logger
    ) async throws {
        var options = PostgresConnection.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: tls)
        options.options.connectTimeout = TimeAmount(configuration.connectTimeout)
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .warning)
        let connection = try await PostgresConnection.connect(configuration: options, id: 0, logger: quiet)
        try? await connection.close()
    }

    /// The probe's TLS, as the pool's (``tls(_:)``): the same client configuration.
    private static func connectionTLS(_ mode: SharedTierConfiguration.TLSMode) throws -> PostgresConnection.Configuration.TLS {
        switch mode {
        case .disable: return .disable
        case .prefer: return .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: return .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
    }

    private static func tls(_ mode: SharedTierConfiguration.TLSMode) -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable: return .disable
        case .prefer: return .prefer(.makeClientConfiguration())
        case .require: return .require(.makeClientConfiguration())
        }
    }
}
