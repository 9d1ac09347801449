import CachingClient
import Foundation
import NIOCore
import NIOPosix
@testable import SharedTier
import Testing

@Suite("Shared tier: configuration", .timeLimit(.minutes(2)))
struct SharedTierConfigurationTests {
    @Test("a write gets the query timeout and 1 ms more per 10 KB it carries")
    func writeTimeout() {
        #expect(SharedTier.writeTimeout(bytes: 0, base: .milliseconds(250)) == .milliseconds(250))
        #expect(SharedTier.writeTimeout(bytes: 12_000_000, base: .milliseconds(250)) == .milliseconds(1_450))
    }

    @Test("a URL is read into host, port, user, password, database and TLS mode")
    func readsAURL() throws {
        let configuration = try SharedTierConfiguration(url: "postgres://cache:s%40cret@db.example:6543/shared?sslmode=disable")
        #expect(configuration.host == "db.example")
        #expect(configuration.port == 6543)
        #expect(configuration.username == "cache")
        #expect(configuration.password == "s@cret")
        #expect(configuration.database == "shared")
        #expect(configuration.tls == .disable)
        #expect(configuration.displayURL == "postgres://cache@db.example:6543/shared", "no password in messages")
        #expect(try SharedTierConfiguration(url: "postgresql://u@h/d").port == 5432)
        // Brackets belong to the URL's syntax, not to the address.
        let ipv6 = try SharedTierConfiguration(url: "postgres://u@[::1]:6543/d")
        #expect(ipv6.host == "::1")
        #expect(ipv6.displayURL == "postgres://u@[::1]:6543/d", "read back as it was written")
        #expect(try SharedTierConfiguration(url: "postgres://u@h/d?connect_timeout=30&sslmode=require").connectTimeout == .seconds(30))
        // A percent-encoded name is one name, slash and space included (it said "no database").
        #expect(try SharedTierConfiguration(url: "postgres://po%20st@h/post%2Fgres").database == "post/gres")
        #expect(try SharedTierConfiguration(url: "postgres://po%20st@h/post%2Fgres").username == "po st")
        // A trailing or doubled `&` says nothing.
        #expect(try SharedTierConfiguration(url: "postgres://u@h/d?sslmode=disable&").tls == .disable)
        #expect(try SharedTierConfiguration(url: "postgres://u@h/d?sslmode=disable&&connect_timeout=5").connectTimeout == .seconds(5))
    }

    @Test(
        "a bad URL is refused with what is wrong",
        arguments: [
            ("http://u@h/d", "scheme"), ("postgres://h/d", "no user"), ("postgres://u@h", "no database"),
            ("postgres://u@h/d?sslmode=sometimes", "sslmode"), ("postgres://u@h/d?pool=3", "unknown parameter"),
            ("postgres://u@h/d?connect_timeout=0", "connect_timeout"), ("postgres://u@h/d?connect_timeout=soon", "connect_timeout"),
            ("postgres://u@h/d?connect_timeout=3601", "connect_timeout"), ("postgres://u@h/d?connect_timeout=", "connect_timeout"),
            ("postgres://u@h/d?connect_timeout=+30", "connect_timeout"), ("postgres://u@h/d?sslmode=disable&sslmode=require", "twice"),
            ("not a url at all", "postgres://"), ("postgres://u@:5432/d", "no host"),
            // Read as no password, sent to the server, or said to name no database, before (a hunt of 27 November):
            ("postgres://u:s%zzcret@h/d", "%zz is not a percent-encoded byte"), ("postgres://u@h/d%00b", "NUL byte"),
            ("postgres://u%00x@h/d", "the user contains a NUL byte"), ("postgres://u@h/a/b", "the path must be one database name"),
        ])
    func refusesABadURL(url: String, complaint: String) {
        let error = #expect(throws: SharedTierError.self) { try SharedTierConfiguration(url: url) }
        guard case .invalidURL(let named, _) = error else {
            Issue.record("not an invalid URL: \(String(describing: error))")
            return
        }
        #expect(named == url)
        #expect(error?.description.contains(complaint) == true, "\(String(describing: error))")
    }

    @Test("an unreachable server is an error at start, naming it")
    func unreachableServer() async throws {
        var configuration = CachingClientConfiguration()
        configuration.sharedTier = try SharedTierConfiguration(url: "postgres://nobody@127.0.0.1:1/nothing?sslmode=disable")
        configuration.sharedTier?.connectTimeout = .seconds(2)
        let error = await #expect(throws: SharedTierError.self) { _ = try await CachingClient(configuration: configuration) }
        guard case .unreachable = error else {
            Issue.record("not unreachable: \(String(describing: error))")
            return
        }
        #expect(
            error?.description == "cannot reach the shared tier at postgres://nobody@127.0.0.1:1/nothing: connection refused; "
                + "check that PostgreSQL runs there and accepts this user", "\(String(describing: error))")
    }

    /// The message gave what was left of the deadline, unrounded: "no answer within
    /// 1.971640904 seconds" for a connect_timeout of 2.
    @Test("a server that accepts the connection and never answers: the connect timeout, as set")
    func silentServer() async throws {
        let silent = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        defer { silent.close(promise: nil) }
        let port = try #require(silent.localAddress?.port)
        var configuration = CachingClientConfiguration()
        configuration.sharedTier = try SharedTierConfiguration(url: "postgres://nobody@127.0.0.1:\(port)/nothing?sslmode=disable&connect_timeout=1")
        let error = await #expect(throws: SharedTierError.self) { _ = try await CachingClient(configuration: configuration) }
        #expect(error?.description.contains(": no answer within 1 second;") == true, "\(String(describing: error))")
    }

    @Test("a server that turns the login down says why at once: an unknown user, an unknown database")
    func loginTurnedDown() async throws {
        let server = try SharedTierConfiguration(url: await TestPostgres.serverURL())
        var unknownUser = server
        unknownUser.username = "cachescope_nobody"
        var unknownDatabase = server
        unknownDatabase.database = "cachescope_no_such_database"
        // A server that asks for passwords turns an unknown user down for its password instead.
        for (tier, reasons) in [
            (unknownUser, [#"role "cachescope_nobody" does not exist"#, #"password authentication failed for user "cachescope_nobody""#, "asks for a password"]),
            (unknownDatabase, [#"database "cachescope_no_such_database" does not exist"#]),
        ] {
            var configuration = CachingClientConfiguration()
            configuration.sharedTier = tier
            configuration.sharedTier?.connectTimeout = .seconds(20)
            let started = ContinuousClock.now
            let error = await #expect(throws: SharedTierError.self) { _ = try await CachingClient(configuration: configuration) }
            #expect(reasons.contains { error?.description.contains(": \($0)") == true }, "\(String(describing: error))")
            #expect(ContinuousClock.now - started < .seconds(10), "not after the connect timeout")
        }
    }

    @Test("settings out of range are refused before connecting")
    func settingsOutOfRange() async throws {
        var configuration = CachingClientConfiguration()
        configuration.sharedTier = try SharedTierConfiguration(url: "postgres://u@127.0.0.1:1/d")
        configuration.sharedTier?.capacity = 0
        await #expect(throws: SharedTierError.invalidConfiguration("capacity must be positive (is 0)")) {
            _ = try await CachingClient(configuration: configuration)
        }
        configuration.sharedTier?.capacity = 1_000
        configuration.sharedTier?.channel = "purge; DROP TABLE x"
        let error = await #expect(throws: SharedTierError.self) { _ = try await CachingClient(configuration: configuration) }
        #expect(error?.description.contains("channel must be a lower-case identifier") == true)
    }

    /// The message was `PostgresTransactionError`'s dump (file, line, every optional), with a
    /// hint about CREATE whatever the cause.
    @Test("tables that cannot be made: PostgreSQL's reason, and the CREATE hint only when the user may not")
    func migrationFailures() async throws {
        let tier = try await TestPostgres.freshDatabase(instance: "a")
        let role = "reader_" + tier.database.suffix(8)
        try await TestPostgres.execute("CREATE ROLE \(role) LOGIN", on: tier)
        try await TestPostgres.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC", on: tier)
        var configuration = CachingClientConfiguration()
        configuration.sharedTier = tier
        configuration.sharedTier?.username = role
        let denied = await #expect(throws: SharedTierError.self) { _ = try await CachingClient(configuration: configuration) }
        let deniedText = denied?.description ?? ""
        #expect(deniedText.contains("permission denied for schema public; the user needs CREATE on the database"), "\(deniedText)")
        #expect(!deniedText.contains("PostgresTransactionError") && !deniedText.contains("closureError"), "\(deniedText)")

        try await TestPostgres.execute("ALTER DATABASE \(tier.database) SET default_transaction_read_only = on", on: tier)
        configuration.sharedTier?.username = tier.username
        let readOnly = await #expect(throws: SharedTierError.self) { _ = try await CachingClient(configuration: configuration) }
        let readOnlyText = readOnly?.description ?? ""
        #expect(readOnlyText.contains("read-only transaction"), "\(readOnlyText)")
        #expect(!readOnlyText.contains("needs CREATE"), "\(readOnlyText)")
        // Roles are the server's, not the database's (which is read-only by now).
        var server = tier
        server.database = "postgres"
        try await TestPostgres.execute("DROP ROLE \(role)", on: server)
    }

    @Test("a database with a newer schema is refused, not overwritten")
    func newerSchema() async throws {
        let tier = try await TestPostgres.freshDatabase(instance: "a")
        let instances = try await Instances.start(1, tier: tier)
        try await instances.stop()
        try await TestPostgres.execute("INSERT INTO cachescope_schema (version) VALUES (99)", on: tier)
        var configuration = CachingClientConfiguration()
        configuration.sharedTier = tier
        await #expect(throws: SharedTierError.schemaTooNew(found: 99, supported: 2)) {
            _ = try await CachingClient(configuration: configuration)
        }
    }
}
