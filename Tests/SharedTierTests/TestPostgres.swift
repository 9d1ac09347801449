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
        return try OwnServer.start().url
    }

    /// A configuration for a new, empty database on the test server.
    static func freshDatabase(instance: String) async throws -> SharedTierConfiguration {
        try await freshDatabase(on: serverURL(), instance: instance)
    }

    /// A configuration for a new, empty database on the server at `url`.
    static func freshDatabase(on url: String, instance: String) async throws -> SharedTierConfiguration {
        var configuration = try SharedTierConfiguration(url: url)
        let name = "cachescope_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await execute("CREATE DATABASE \(name)", on: configuration)
        configuration.database = name
        configuration.tls = .disable
        configuration.instanceName = instance
        return configuration
    }

    /// Runs one statement and returns its rows' first two integer columns.
    @discardableResult
    static func execute(_ sql: String, on configuration: SharedTierConfiguration) async throws -> [(Int, Int)] {
        let client = PostgresClient(
            configuration: .init(
                host: configuration.host, port: configuration.port, username: configuration.username,
                password: configuration.password, database: configuration.database, tls: .disable),
            backgroundLogger: Logger(label: "cachescope.tests.postgres"))
        return try await withThrowingTaskGroup(of: [(Int, Int)].self) { group in
            group.addTask {
                await client.run()
                return []
            }
            defer { group.cancelAll() }
            var rows: [(Int, Int)] = []
            let sequence = try await client.query(PostgresQuery(unsafeSQL: sql))
            if sql.uppercased().hasPrefix("SELECT") {
                for try await row in sequence.decode((Int, Int).self) { rows.append(row) }
            } else {
                for try await _ in sequence {}
            }
            return rows
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

    static func start() throws -> OwnServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cachescope-pg-\(UUID().uuidString)").path
        let url = try script("start", directory, String(ProcessInfo.processInfo.processIdentifier))
        return OwnServer(directory: directory, url: url)
    }

    /// Stops the server (immediately, as a crash would), keeping its data and port.
    func pause() throws { try Self.script("pause", directory) }
    /// Starts it again on the same port.
    func resume() throws { try Self.script("resume", directory) }
    /// Stops it and removes its directory.
    func stop() throws { try Self.script("stop", directory) }

    private static let scriptPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/test-postgres").path

    @discardableResult
    private static func script(_ arguments: String...) throws -> String {
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
        try process.run()
        process.waitUntilExit()
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
