import CacheEvents
public import Foundation

/// One request and its response in a HAR, with CacheScope's cache fields when it wrote it.
public struct HAREntry: Sendable, Hashable, Codable {
    /// The page it belongs to.
    public var pageref: String?
    /// When the request started (ISO 8601 with milliseconds and zone).
    public var startedDateTime: String
    /// Total milliseconds (the sum of the non-negative ``timings``).
    public var time: Double
    /// The request.
    public var request: HARRequest
    /// The response.
    public var response: HARResponse
    /// The cache entry's state before and after the request.
    public var cache: HARCache
    /// Where the time went.
    public var timings: HARTimings
    /// The server's IP address.
    public var serverIPAddress: String?
    /// The connection's ID.
    public var connection: String?
    /// A comment.
    public var comment: String?
    /// CacheScope's outcome word (`_cacheStatus`: `hit`, `miss`, `revalidated`, …).
    public var cacheStatus: String?
    /// Why (`_cacheReason`: `max-age=60`, `not in cache`, …).
    public var cacheReason: String?
    /// Seconds of freshness left when served (`_ttl`; negative when stale).
    public var ttl: Double?
    /// The served response's age in seconds (`_age`).
    public var age: Double?

    /// Creates an entry.
    public init(
        pageref: String? = nil, startedDateTime: String, time: Double, request: HARRequest, response: HARResponse,
        cache: HARCache = HARCache(), timings: HARTimings, serverIPAddress: String? = nil, connection: String? = nil,
        comment: String? = nil, cacheStatus: String? = nil, cacheReason: String? = nil, ttl: Double? = nil, age: Double? = nil
    ) {
        self.pageref = pageref
        self.startedDateTime = startedDateTime
        self.time = time
        self.request = request
        self.response = response
        self.cache = cache
        self.timings = timings
        self.serverIPAddress = serverIPAddress
        self.connection = connection
        self.comment = comment
        self.cacheStatus = cacheStatus
        self.cacheReason = cacheReason
        self.ttl = ttl
        self.age = age
    }

    /// ``startedDateTime`` as a date (`nil` when it is not ISO 8601; ``HARReader`` rejects such files).
    public var startDate: Date? { ISO8601Timestamp.date(from: startedDateTime) }

    private enum CodingKeys: String, CodingKey {
        case pageref, startedDateTime, time, request, response, cache, timings, serverIPAddress, connection, comment
        case cacheStatus = "_cacheStatus", cacheReason = "_cacheReason", ttl = "_ttl", age = "_age"
    }

    /// Tolerant: `startedDateTime`, `request` and `response` are required; a missing `time`
    /// reads as 0, missing `cache` as empty and missing `timings` as all zero.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pageref = try container.decodeIfPresent(String.self, forKey: .pageref)
        startedDateTime = try container.decode(String.self, forKey: .startedDateTime)
        time = try container.decodeNumberIfPresent(forKey: .time) ?? 0
        request = try container.decode(HARRequest.self, forKey: .request)
        response = try container.decode(HARResponse.self, forKey: .response)
        cache = try container.decodeIfPresent(HARCache.self, forKey: .cache) ?? HARCache()
        timings = try container.decodeIfPresent(HARTimings.self, forKey: .timings) ?? HARTimings(send: 0, wait: 0, receive: 0)
        serverIPAddress = try container.decodeIfPresent(String.self, forKey: .serverIPAddress)
        connection = try container.decodeIfPresent(String.self, forKey: .connection)
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
        cacheStatus = try container.decodeIfPresent(String.self, forKey: .cacheStatus)
        cacheReason = try container.decodeIfPresent(String.self, forKey: .cacheReason)
        ttl = try container.decodeNumberIfPresent(forKey: .ttl)
        age = try container.decodeNumberIfPresent(forKey: .age)
    }
}

/// `timings`: milliseconds per phase; −1 (or absent) where a phase does not apply.
public struct HARTimings: Sendable, Hashable, Codable {
    /// Waiting for a connection slot.
    public var blocked: Double?
    /// DNS resolution.
    public var dns: Double?
    /// Connecting (TCP and TLS).
    public var connect: Double?
    /// Sending the request.
    public var send: Double
    /// Waiting for the first response byte.
    public var wait: Double
    /// Receiving the response.
    public var receive: Double
    /// TLS negotiation (included in `connect`).
    public var ssl: Double?
    /// A comment.
    public var comment: String?

    /// Creates timings.
    public init(blocked: Double? = nil, dns: Double? = nil, connect: Double? = nil, send: Double, wait: Double, receive: Double, ssl: Double? = nil, comment: String? = nil) {
        self.blocked = blocked
        self.dns = dns
        self.connect = connect
        self.send = send
        self.wait = wait
        self.receive = receive
        self.ssl = ssl
        self.comment = comment
    }

    private enum CodingKeys: String, CodingKey { case blocked, dns, connect, send, wait, receive, ssl, comment }

    /// Tolerant: missing `send`, `wait` or `receive` read as 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        blocked = try container.decodeNumberIfPresent(forKey: .blocked)
        dns = try container.decodeNumberIfPresent(forKey: .dns)
        connect = try container.decodeNumberIfPresent(forKey: .connect)
        send = try container.decodeNumberIfPresent(forKey: .send) ?? 0
        wait = try container.decodeNumberIfPresent(forKey: .wait) ?? 0
        receive = try container.decodeNumberIfPresent(forKey: .receive) ?? 0
        ssl = try container.decodeNumberIfPresent(forKey: .ssl)
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
    }

    /// Milliseconds of all phases that apply (non-negative values; `ssl` is inside `connect`).
    public var total: Double {
        [blocked, dns, connect, send, wait, receive].compactMap { $0 }.filter { $0 > 0 }.reduce(0, +)
    }
}
