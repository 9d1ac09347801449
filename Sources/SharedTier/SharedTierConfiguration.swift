import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the shared cache tier lives and how it behaves: a PostgreSQL database that several
/// instances of a client (or of `cachescope proxy`) share, behind their memory and disk tiers.
///
/// ```swift
/// var configuration = CachingClientConfiguration()
/// configuration.sharedTier = try SharedTierConfiguration(url: "postgres://cache@db.internal/cache")
/// configuration.sharedTier?.capacity = 1 << 30
/// let client = try await CachingClient(configuration: configuration)
/// ```
///
/// The tier fails open: when PostgreSQL is down, slower than ``queryTimeout`` or full, a
/// request goes on as if the tier had missed (see docs/shared-tier.md).
public struct SharedTierConfiguration: Sendable, Equatable {
    /// How the connection is secured, as libpq's `sslmode` names it.
    public enum TLSMode: String, Sendable, Equatable {
        /// Plain TCP (`sslmode=disable`).
        case disable
        /// TLS when the server offers it, plain otherwise (`sslmode=prefer`, the default).
        case prefer
        /// TLS or no connection (`sslmode=require`).
        case require
    }

    /// The server's host name or address.
    public var host: String
    /// The server's port. Default 5432.
    public var port: Int
    /// The user to log in as.
    public var username: String
    /// The password, if the server asks for one.
    public var password: String?
    /// The database holding the tier's tables (created and migrated at connect).
    public var database: String
    /// TLS, as `sslmode` in the URL. Default ``TLSMode/prefer``.
    public var tls: TLSMode
    /// The most bytes of entries the table keeps (each entry counted as the store counts it:
    /// body, status line, header fields and URI); past it the least recently used go — those
    /// it takes to get under it, at most ``evictionBatchSize`` a round. An instance looks at its first write and then once
    /// per 1/64 of it written, so the table may exceed it by up to that much (and one entry)
    /// per instance. Default 256 MiB.
    public var capacity: Int
    /// How many entries one eviction round removes at most. Default 100.
    public var evictionBatchSize: Int
    /// How long one query may take before the request goes on without the tier (a write: 1 ms
    /// more per 10 KB it carries). Default 250 ms.
    public var queryTimeout: Duration
    /// How long connecting may take at start, where an unreachable server is an error. Default 5 s.
    public var connectTimeout: Duration
    /// The longest wait between two attempts while the database is unreachable; the wait
    /// starts at one second and doubles. Default 30 s.
    public var maximumBackoff: Duration
    /// The `LISTEN`/`NOTIFY` channel purges are published on. Default `cachescope_purge`.
    public var channel: String
    /// How this instance names itself in the purges it publishes (and other instances' purge
    /// events show). Default `host:pid`.
    public var instanceName: String
    /// The most writes waiting for the database; past it a response is not written to the
    /// tier (it stays in the local tiers). Default 64.
    public var maximumPendingWrites: Int
    /// How many rows one query reads or deletes when a prefix or filter purge goes through the
    /// table (the tier keeps no URL in the clear: it reads every row's metadata), each query
    /// within ``queryTimeout``. Default 1,000.
    public var scanPageSize: Int

    /// A configuration for a server, with every other setting at its default.
    public init(host: String, port: Int = 5432, username: String, password: String? = nil, database: String) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        tls = .prefer
        capacity = 256 << 20
        evictionBatchSize = 100
        queryTimeout = .milliseconds(250)
        connectTimeout = .seconds(5)
        maximumBackoff = .seconds(30)
        channel = "cachescope_purge"
        instanceName = "\(Self.hostName):\(ProcessInfo.processInfo.processIdentifier)"
        maximumPendingWrites = 64
        scanPageSize = 1_000
    }

    /// A configuration from a URL: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?PARAMETERS]`
    /// (`postgresql://` too), the parameters (each at most once, joined by `&`) being
    /// `sslmode=disable|prefer|require` and `connect_timeout=SECONDS` (1 to 3600, the whole
    /// time the start may take; libpq's name, though libpq reads 0 as "forever" and this
    /// refuses it). User and password may be percent-encoded.
    /// - Throws: ``SharedTierError/invalidURL(_:reason:)`` saying what is missing or wrong.
    public init(url: String) throws(SharedTierError) {
        // Foundation takes a stray `%` literally (it re-encodes it as %25); libpq refuses it.
        if let bad = Self.brokenPercentEncoding(in: url) {
            throw .invalidURL(url, reason: "\(bad) is not a percent-encoded byte (write % itself as %25)")
        }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw .invalidURL(url, reason: "it is not a URL; expected postgres://USER@HOST[:PORT]/DATABASE")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw .invalidURL(url, reason: "the scheme must be postgres:// or postgresql://, not \(scheme)://")
        }
        guard let host = components.host, !host.isEmpty else { throw .invalidURL(url, reason: "it names no host") }
        guard let user = try Self.decoded(components.percentEncodedUser, "the user", in: url), !user.isEmpty else {
            throw .invalidURL(url, reason: "it names no user (postgres://USER@\(host)/…)")
        }
        let password = try Self.decoded(components.percentEncodedPassword, "the password", in: url)
        // Encoded, so that a database whose name has a `/` in it (`post%2Fgres`) is one name.
        let path = String(components.percentEncodedPath.drop(while: { $0 == "/" }))
        guard !path.isEmpty else { throw .invalidURL(url, reason: "it names no database (…@\(host)/DATABASE)") }
        guard !path.contains("/") else {
            throw .invalidURL(url, reason: "the path must be one database name (…@\(host)/DATABASE), not \(path) (write a / in a name as %2F)")
        }
        guard let database = try Self.decoded(path, "the database name", in: url) else { throw .invalidURL(url, reason: "it names no database") }
        if let port = components.port, !(1...65_535).contains(port) {
            throw .invalidURL(url, reason: "port \(port) is out of range")
        }
        // An IPv6 address is written in brackets in a URL (postgres://u@[::1]/db), not in a connection.
        let address = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.init(
            host: address, port: components.port ?? 5432, username: user, password: password, database: database)
        var seen: Set<String> = []
        // An empty item (a trailing or doubled `&`) says nothing.
        for item in components.queryItems ?? [] where !(item.name.isEmpty && item.value == nil) {
            guard seen.insert(item.name).inserted else { throw .invalidURL(url, reason: "\(item.name) is given twice") }
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw .invalidURL(url, reason: "sslmode must be disable, prefer or require")
                }
                tls = mode
            case "connect_timeout":
                guard let value = item.value, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let seconds = Int(value), (1...3_600).contains(seconds) else {
                    throw .invalidURL(url, reason: "connect_timeout must be a whole number of seconds from 1 to 3600")
                }
                connectTimeout = .seconds(seconds)
            default:
                throw .invalidURL(url, reason: "unknown parameter \(item.name) (only sslmode and connect_timeout are understood)")
            }
        }
    }

    /// The first `%` in `url` not followed by two hex digits (`%zz`), with what follows it.
    private static func brokenPercentEncoding(in url: String) -> String? {
        let bytes = Array(url.utf8)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "%") {
            let next = bytes.dropFirst(index + 1).prefix(2)
            if next.count < 2 || !next.allSatisfy({ $0 < 128 && Character(Unicode.Scalar($0)).isHexDigit }) {
                return String(decoding: bytes[index..<min(bytes.count, index + 3)], as: UTF8.self)
            }
        }
        return nil
    }

    /// A percent-encoded part of the URL, decoded; an error naming `what` when its encoding is
    /// broken, or it holds a NUL byte, which PostgreSQL's protocol cannot carry.
    private static func decoded(_ encoded: String?, _ what: String, in url: String) throws(SharedTierError) -> String? {
        guard let encoded else { return nil }
        guard let text = encoded.removingPercentEncoding else {
            throw .invalidURL(url, reason: "\(what) is not validly percent-encoded (write % itself as %25)")
        }
        guard !text.utf8.contains(0) else { throw .invalidURL(url, reason: "\(what) contains a NUL byte (%00)") }
        return text
    }

    /// This machine's name, as `gethostname` gives it (`ProcessInfo.hostName` may ask DNS,
    /// which can take seconds where there is none).
    private static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The URL without its password, for messages.
    public var displayURL: String { "postgres://\(username)@\(Self.urlHost(host)):\(port)/\(database)" }

    /// `host` as a URL writes it: an IPv6 address in brackets.
    private static func urlHost(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    /// Checks what would otherwise fail later.
    func validate() throws(SharedTierError) {
        guard capacity > 0 else { throw .invalidConfiguration("capacity must be positive (is \(capacity))") }
        guard evictionBatchSize > 0 else { throw .invalidConfiguration("evictionBatchSize must be positive (is \(evictionBatchSize))") }
        guard queryTimeout > .zero else { throw .invalidConfiguration("queryTimeout must be positive") }
        guard connectTimeout > .zero else { throw .invalidConfiguration("connectTimeout must be positive") }
        guard maximumPendingWrites > 0 else { throw .invalidConfiguration("maximumPendingWrites must be positive") }
        guard scanPageSize > 0 else { throw .invalidConfiguration("scanPageSize must be positive (is \(scanPageSize))") }
        let channelCharacters = channel.utf8.allSatisfy { $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x61...0x7a).contains($0) }
        guard !channel.isEmpty, channel.utf8.count <= 63, channelCharacters, !(0x30...0x39).contains(channel.utf8.first ?? 0) else {
            throw .invalidConfiguration("channel must be a lower-case identifier of at most 63 characters (is \"\(channel)\")")
        }
    }
}
