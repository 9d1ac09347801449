import Foundation
import Logging
import PostgresNIO
import SharedTier

/// The PostgreSQL the benchmark runs against: the server `CACHESCOPE_TEST_POSTGRES_URL` names,
/// or else a throw-away one on loopback started with `Scripts/test-postgres` (stopped by the
/// script's watchdog when this process ends). Each run gets a new, empty database on it.
enum BenchmarkPostgres {
    /// Why the benchmark has no server.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// A configuration for a new, empty database with room for a gibibyte.
    static func freshDatabase() async throws -> SharedTierConfiguration {
        let url = try serverURL()
        var configuration = try SharedTierConfiguration(url: url)
        configuration.tls = .disable
        let name = "cachescope_bench_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await execute("CREATE DATABASE \(name)", on: configuration)
        configuration.database = name
        configuration.capacity = 1 << 30
        return configuration
    }

    /// Drops the database `freshDatabase()` made (from the server's `postgres` database).
    static func drop(_ configuration: SharedTierConfiguration) async throws {
        var server = configuration
        server.database = "postgres"
        try await execute("DROP DATABASE IF EXISTS \(configuration.database)", on: server)
    }

    /// A connection to the tier's database, kept open for the benchmark's own questions (a
    /// connection made for each would start a server process each time, and its exit would
    /// run beside the request timed next).
    static func connect(to configuration: SharedTierConfiguration) async throws -> PostgresConnection {
        try await PostgresConnection.connect(configuration: options(configuration), id: 2, logger: Logger(label: "cachescope.bench"))
    }

    /// How many entries the tier's table holds.
    static func entryCount(on connection: PostgresConnection) async throws -> Int {
        var count = 0
        let rows = try await connection.query("SELECT count(*) FROM cachescope_entries", logger: Logger(label: "cachescope.bench"))
        for try await value in rows.decode(Int.self) { count = value }
        return count
    }

    private static func options(_ configuration: SharedTierConfiguration) -> PostgresConnection.Configuration {
        PostgresConnection.Configuration(
            host: configuration.host, port: configuration.port, username: configuration.username,
            password: configuration.password, database: configuration.database, tls: .disable)
    }

    /// Runs one statement on a connection of its own.
    private static func execute(_ sql: String, on configuration: SharedTierConfiguration) async throws {
        let logger = Logger(label: "cachescope.bench")
        let connection = try await PostgresConnection.connect(configuration: options(configuration), id: 1, logger: logger)
        do {
            for try await _ in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) {}
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }

    private static func serverURL() throws -> String {
        if let url = ProcessInfo.processInfo.environment["CACHESCOPE_TEST_POSTGRES_URL"], !url.isEmpty { return url }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-bench-pg-\(UUID().uuidString)").path
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/test-postgres").path
        // Output into files: the server and the watchdog outlive the script and would hold a pipe open.
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-bench-pg-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, "start", directory, String(ProcessInfo.processInfo.processIdentifier)]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let printed = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw Unavailable(description: """
                the shared-tier benchmark needs PostgreSQL: install the server binaries (Debian: apt-get install postgresql) \
                or set CACHESCOPE_TEST_POSTGRES_URL (postgres://USER@HOST:PORT/postgres, a user who may CREATE DATABASE); \
                \(script) exited \(process.terminationStatus)
                """)
        }
        return printed.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
