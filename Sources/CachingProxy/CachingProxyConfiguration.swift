/// Everything a ``CachingProxy`` is set up with: where it listens, where it forwards, and the
/// limits that protect it from clients. Every limit has a default.
///
/// ```swift
/// var configuration = CachingProxyConfiguration(origin: try ProxyOrigin(parsing: "http://127.0.0.1:8080"))
/// configuration.port = 8081
/// let proxy = try await CachingProxy.start(configuration, client: client)
/// ```
public struct CachingProxyConfiguration: Sendable {
    /// The origin every request is forwarded to.
    public var origin: ProxyOrigin
    /// The address to listen on. Default `127.0.0.1`.
    public var host: String
    /// The port to listen on; 0 picks a free one (read it from ``CachingProxy/port``). Default 0.
    public var port: Int
    /// Whether a non-loopback ``host`` may be used. Default `false`: the proxy refuses to start.
    public var allowRemote: Bool
    /// The name this proxy gives itself in `Via` and `Cache-Status`. Default `cachescope`.
    public var name: String
    /// The longest request target accepted; longer gets 414. Default 8 KiB.
    public var maximumURILength: Int
    /// The largest request header section (field names and values) accepted; larger gets 431.
    /// Default 32 KiB.
    public var maximumHeaderBytes: Int
    /// The largest request body accepted; larger gets 413. Default 16 MiB.
    public var maximumRequestBodyBytes: Int
    /// How long a connection may take to send a complete request head, counted from when it
    /// connects or its previous response ended; then it is closed. Default 30 s.
    public var headerReadTimeout: Duration
    /// The most client connections open at once; more are answered 503 and closed. Default 1024.
    public var maximumConnections: Int
    /// How long ``CachingProxy/stop()`` waits for requests in flight before closing their
    /// connections. Default 10 s.
    public var drainTimeout: Duration

    /// Whether a fresh hit is answered on the connection's event loop
    /// (``CachingClient/immediateResponse(for:policy:)``) instead of in a task of its own.
    /// Default `false`: on 26 November 2026 it made hits no faster, in debug builds nor in a
    /// release one (docs/proxy.md, Performance). Responses, events and the access log are the
    /// same either way. `cachescope proxy --hits-on-event-loop` sets it.
    public var answersHitsOnEventLoop: Bool

    /// A configuration forwarding to `origin`, listening on 127.0.0.1 (a free port), with the
    /// default limits.
    public init(origin: ProxyOrigin, host: String = "127.0.0.1", port: Int = 0) {
        self.origin = origin
        self.host = host
        self.port = port
        allowRemote = false
        name = "cachescope"
        maximumURILength = 8 << 10
        maximumHeaderBytes = 32 << 10
        maximumRequestBodyBytes = 16 << 20
        headerReadTimeout = .seconds(30)
        maximumConnections = 1024
        drainTimeout = .seconds(10)
        answersHitsOnEventLoop = false
    }

    /// Checks the limits and the listening address.
    /// - Throws: ``CachingProxyError`` naming the value that cannot be used.
    func validate() throws(CachingProxyError) {
        let limits = [
            ("maximumURILength", maximumURILength), ("maximumHeaderBytes", maximumHeaderBytes),
            ("maximumRequestBodyBytes", maximumRequestBodyBytes), ("maximumConnections", maximumConnections),
        ]
        for (name, value) in limits where value <= 0 { throw .invalidLimit(name: name, value: value) }
        if !allowRemote, !Self.isLoopback(host) { throw .remoteListenNotAllowed(host: host) }
        if !CacheStatus.isValidCacheName(name) { throw .invalidName(name) }
        if forwardsToItself {
            throw .originIsThisProxy(origin: origin.description, listen: ProxyOrigin.authority(host: host, port: port))
        }
    }

    /// Whether ``origin`` is the address this proxy listens on — a plain-HTTP origin on the
    /// same port, at the same host; at `localhost` when listening on `127.0.0.1` or `::1` (or
    /// the other way round); or at a loopback address when listening on every address — so
    /// each request would loop back to the proxy until it timed out. Two different loopback
    /// addresses (`127.0.0.1` and `127.0.0.2`, `127.0.0.1` and `::1`) are different sockets.
    /// Port 0 (a free port) never is.
    public var forwardsToItself: Bool {
        guard port != 0, origin.scheme == "http", origin.port == port else { return false }
        let listening = ProxyOrigin.unbracketed(host).lowercased(), target = origin.host.lowercased()
        if listening == target { return true }
        let localhost = ["127.0.0.1", "::1"]
        if listening == "localhost" { return localhost.contains(target) }
        if target == "localhost" { return localhost.contains(listening) || ["0.0.0.0", "::"].contains(listening) }
        switch listening {
        case "0.0.0.0": return Self.isLoopback(target) && !target.contains(":")
        case "::": return Self.isLoopback(target)  // dual-stack: IPv4 too
        default: return false
        }
    }

    /// Whether `host` names this machine only: `localhost`, `127.0.0.0/8` or `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        let bare = ProxyOrigin.unbracketed(host)
        if bare.lowercased() == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }
}
