import Foundation
import Logging
import PostgresNIO
import SharedTier
import Synchronization

/// The PostgreSQL the shared tier's tests use: the server `CACHESCOPE_TEST_POSTGRES_URL`
/// names (what `.ci/run` starts), or else one this test process starts with
/// `Scripts/test-postgres` and that stops when the process ends. Each test gets a new,
/// empty database on it. Without either, the tests fail and say how to provide one.
enum TestPostgres {
    /// Why no server could be had.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The server's URL (its `postgres` database), started once per test process.
    static func serverURL() async throws -> String {
        try await shared.value
    }

    private static let shared = Task<String, any Error> {
        if let url = ProcessInfo.processInfo.environment["CACHESCOPE_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        return try await OwnServer.start().url
    }

    /// How long the tests' tiers give a query. Production's 250 ms is about a quiet server; on
    /// a busy two-core CI machine running PostgreSQL, the tests and a build's leftovers, a
    /// query (or a batched lookup's wait) can pass it, and a lookup that should hit misses.
    /// Tests of timeouts and outages set the production value again.
    static let queryTimeout: Duration = .seconds(5)

    /// The query timeout a tier has unless told otherwise (250 ms).
    static let productionQueryTimeout = SharedTierConfiguration(host: "127.0.0.1", username: "cachescope", database: "cachescope")
        .queryTimeout

    /// A configuration for a new, empty database on the test server.
    static func freshDatabase(instance: String) async throws -> SharedTierConfiguration {
        try await freshDatabase(on: serverURL(), instance: instance)
    }

    /// A configuration for a new, empty database on the server at `url`, whose queries may
    /// take `queryTimeout`.
    static func freshDatabase(
        on url: String, instance: String, queryTimeout: Duration = TestPostgres.queryTimeout
    ) async throws -> SharedTierConfiguration {
        var configuration = try SharedTierConfiguration(url: url)
        configuration.queryTimeout = queryTimeout
        let name = "cachescope_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await execute("CREATE DATABASE \(name)", on: configuration)
        configuration.database = name
        configuration.tls = .disable
        configuration.instanceName = instance
        return configuration
    }

    /// Runs one statement on a connection of its own and returns its rows' first two integer
    /// columns; fails after `limit` rather than wait for a server that does not answer.
    @discardableResult
    static func execute(
        _ sql: String, on configuration: SharedTierConfiguration, within limit: Duration = .seconds(30)
    ) async throws -> [(Int, Int)] {
        var options = PostgresConnection.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: .disable)
        options.options.connectTimeout = .seconds(10)
        let logger = Logger(label: "cachescope.tests.postgres")
        return try await explained(sql) {
            try await run(sql, options: options, logger: logger, within: limit)
        }
    }

    private static func run(
        _ sql: String, options: PostgresConnection.Configuration, logger: Logger, within limit: Duration
    ) async throws -> [(Int, Int)] {
        try await bounded(within: limit, what: sql) {
            let connection = try await PostgresConnection.connect(configuration: options, id: 1, logger: logger)
            do {
                var rows: [(Int, Int)] = []
                let sequence = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
                if sql.uppercased().hasPrefix("SELECT") {
                    for try await row in sequence.decode((Int, Int).self) { rows.append(row) }
                } else {
                    for try await _ in sequence {}
                }
                try await connection.close()
                return rows
            } catch {
                try? await connection.close()
                throw error
            }
        }
    }

    /// A statement that failed, with PostgreSQL's own words (`PSQLError`'s description hides them).
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    private static func explained<T>(_ sql: String, _ operation: () async throws -> T) async throws -> T {
        do {
            return try await operation()
        } catch let error as PSQLError {
            throw Failed(description: "\(sql.prefix(200)): \(String(reflecting: error))")
        }
    }

    /// Why a test's wait gave up.
    struct TimedOut: Error, CustomStringConvertible {
        let description: String
    }

    /// `operation`'s result, or ``TimedOut`` naming `what` after `limit`: a test never waits
    /// for ever on a server or a script.
    static func bounded<T: Sendable>(
        within limit: Duration, what: String, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw TimedOut(description: "\(what.prefix(200)): no answer within \(limit)")
            }
            return result
        }
    }
}

/// A throw-away server of this process's own (`Scripts/test-postgres`): stopped and removed
/// by ``stop()``, or by the script's watchdog once this process has ended.
final class OwnServer: Sendable {
    let directory: String
    let url: String

    private init(directory: String, url: String) {
        self.directory = directory
        self.url = url
    }

    static func start() async throws -> OwnServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-pg-\(UUID().uuidString)").path
        let url = try await script("start", directory, String(ProcessInfo.processInfo.processIdentifier))
        return OwnServer(directory: directory, url: url)
    }

    /// Stops the server, closing every connection, keeping its data and port.
    func pause() async throws { try await Self.script("pause", directory) }
    /// Starts it again on the same port.
    func resume() async throws { try await Self.script("resume", directory) }
    /// Stops it and removes its directory.
    func stop() async throws { try await Self.script("stop", directory) }

    private static let scriptPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/test-postgres").path

    /// Runs the script and returns what it printed. Waits without holding a thread (the
    /// cooperative pool has one per core, and initdb can take seconds on a busy machine),
    /// and at most two minutes.
    @discardableResult
    private static func script(_ arguments: String...) async throws -> String {
        // Into files, not pipes: the server and the script's watchdog outlive the script, and
        // a pipe they inherited would never reach its end while this process runs.
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-pg-\(UUID().uuidString).out")
        let errorFile = outputFile.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [scriptPath] + arguments
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        do {
            try await TestPostgres.bounded(within: .seconds(120), what: "Scripts/test-postgres \(arguments.joined(separator: " "))") {
                for await _ in exited.stream {}
                try Task.checkCancellation()
            }
        } catch {
            if process.isRunning { process.terminate() }
            throw error
        }
        let printed = (try? Data(contentsOf: outputFile)) ?? Data()
        let complaint = (try? Data(contentsOf: errorFile)) ?? Data()
        guard process.terminationStatus == 0 else {
            throw TestPostgres.Unavailable(description: """
                the shared tier's tests need PostgreSQL: set CACHESCOPE_TEST_POSTGRES_URL to a server \
                (postgres://USER@HOST:PORT/postgres, a user who may CREATE DATABASE), or install the server \
                binaries (Debian: apt-get install postgresql) so the tests start their own. \
                Scripts/test-postgres \(arguments.joined(separator: " ")) said: \(String(decoding: complaint, as: UTF8.self))
                """)
        }
        return String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
