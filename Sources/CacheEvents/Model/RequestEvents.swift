public import HTTPTypes
public import HTTPCaching

/// `requestStarted`: a request entered the client.
public struct RequestStarted: Sendable, Hashable, Codable {
    /// `GET`, `POST`, …
    public var method: String
    /// The absolute URL as requested.
    public var url: String
    /// The primary cache key (`GET https://…`), or empty when the request has none.
    public var cacheKey: String
    /// The policy's command-line name (`protocol`, `reload`, …).
    public var policy: String

    /// The ``policy`` of the cache's own stale-while-revalidate refreshes.
    public static let backgroundPolicy = "background"
    /// The request's header fields.
    public var headers: HTTPFields

    /// Creates the payload.
    public init(method: String, url: String, cacheKey: String, policy: String, headers: HTTPFields) {
        self.method = method
        self.url = url
        self.cacheKey = cacheKey
        self.policy = policy
        self.headers = headers
    }
}

/// `lookup`: the cache's verdict before any network traffic.
public struct Lookup: Sendable, Hashable, Codable {
    /// The verdict.
    public var verdict: LookupVerdict
    /// Why, in words (`max-age=60`, `expired 3s ago`, `Vary mismatch: Accept-Language`).
    public var reason: String
    /// The stored response's age in seconds, when one was found.
    public var age: Double?
    /// Its remaining freshness in seconds (negative when stale), when one was found.
    public var ttl: Double?

    /// Creates the payload.
    public init(verdict: LookupVerdict, reason: String, age: Double? = nil, ttl: Double? = nil) {
        self.verdict = verdict
        self.reason = reason
        self.age = age
        self.ttl = ttl
    }
}

/// `revalidationSent`: the validators sent to the origin.
public struct RevalidationSent: Sendable, Hashable, Codable {
    /// The `If-None-Match` value, if sent.
    public var ifNoneMatch: String?
    /// The `If-Modified-Since` value, if sent.
    public var ifModifiedSince: String?
    /// Whether it runs in the background (stale-while-revalidate) while a stale copy is served.
    public var background: Bool

    /// Creates the payload.
    public init(ifNoneMatch: String?, ifModifiedSince: String?, background: Bool = false) {
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.background = background
    }
}

/// `notModified`: a 304 freshened stored responses.
public struct NotModified: Sendable, Hashable, Codable {
    /// How many stored responses were freshened.
    public var freshened: Int
    /// The freshened response's new time to live in seconds.
    public var ttl: Double?
    /// The 304's own header fields, as the origin sent them: what a simulation needs to answer
    /// the same revalidation again (`cachescope replay --what-if`). `nil` in logs written
    /// before CacheScope recorded them.
    public var headers: HTTPFields?

    /// Creates the payload.
    public init(freshened: Int, ttl: Double?, headers: HTTPFields? = nil) {
        self.freshened = freshened
        self.ttl = ttl
        self.headers = headers
    }
}

/// `modified`: a conditional request got a full response.
public struct Modified: Sendable, Hashable, Codable {
    /// Its status code.
    public var status: Int

    /// Creates the payload.
    public init(status: Int) { self.status = status }
}

/// Where a served body came from.
public enum ServedSource: String, Sendable, Hashable, Codable {
    /// The store.
    case cache
    /// The origin.
    case network
}

/// `served`: the response handed to the caller.
public struct Served: Sendable, Hashable, Codable {
    // Declared widest first: Swift lays stored properties out in this order, and one of these
    // is in every request's events (88 bytes in the order of the initialiser, 75 in this one;
    // the rare origin failure is boxed, 8 bytes, none allocated when there is none).
    /// The status code served.
    public var status: Int
    /// Body bytes served.
    public var bytes: Int
    /// Why, in words.
    public var reason: String
    /// The response header fields as served.
    public var headers: HTTPFields
    private var originFailure: OriginFailure?
    /// The served response's age in seconds, when from the cache.
    public var age: Double?
    /// Its remaining freshness in seconds, when known.
    public var ttl: Double?
    /// Where the body came from.
    public var source: ServedSource
    /// The outcome word.
    public var outcome: CacheOutcome

    /// When a stored response stood in for a failed origin (`stale-if-error`): the failure —
    /// `status 500`, or why the origin could not be reached. `nil` otherwise, and in logs
    /// written before CacheScope recorded it. What-if replay answers the request with the same
    /// failure, so the simulated cache falls back as the recorded one did.
    public var originError: String? {
        get { originFailure?.message }
        set { originFailure = OriginFailure(message: newValue, status: originStatus) }
    }
    /// The error status the failed origin answered with (`nil` when it could not be reached,
    /// or when no origin failed).
    public var originStatus: Int? {
        get { originFailure?.status }
        set { originFailure = OriginFailure(message: originError, status: newValue) }
    }

    /// The failed origin behind a stale-if-error serve, boxed: most events have none.
    private final class OriginFailure: Sendable, Hashable {
        let message: String?
        let status: Int?

        /// `nil` when there is neither a message nor a status.
        init?(message: String?, status: Int?) {
            guard message != nil || status != nil else { return nil }
            self.message = message
            self.status = status
        }

        static func == (lhs: OriginFailure, rhs: OriginFailure) -> Bool {
            lhs.message == rhs.message && lhs.status == rhs.status
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(message)
            hasher.combine(status)
        }
    }

    /// Creates the payload.
    public init(
        source: ServedSource, status: Int, bytes: Int, outcome: CacheOutcome, reason: String,
        age: Double? = nil, ttl: Double? = nil, headers: HTTPFields = [:], originError: String? = nil, originStatus: Int? = nil
    ) {
        originFailure = OriginFailure(message: originError, status: originStatus)
        self.source = source
        self.status = status
        self.bytes = bytes
        self.outcome = outcome
        self.reason = reason
        self.age = age
        self.ttl = ttl
        self.headers = headers
    }
}

extension Served {
    private enum CodingKeys: String, CodingKey {
        case status, bytes, reason, headers, age, ttl, source, outcome, originError, originStatus
    }

    /// Reads the flat fields a session log or the attach wire carries (`originError` and
    /// `originStatus` only after an origin failure).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            source: try container.decode(ServedSource.self, forKey: .source), status: try container.decode(Int.self, forKey: .status),
            bytes: try container.decode(Int.self, forKey: .bytes), outcome: try container.decode(CacheOutcome.self, forKey: .outcome),
            reason: try container.decode(String.self, forKey: .reason), age: try container.decodeIfPresent(Double.self, forKey: .age),
            ttl: try container.decodeIfPresent(Double.self, forKey: .ttl), headers: try container.decode(HTTPFields.self, forKey: .headers),
            originError: try container.decodeIfPresent(String.self, forKey: .originError),
            originStatus: try container.decodeIfPresent(Int.self, forKey: .originStatus))
    }

    /// Writes the same flat fields, leaving out those that are `nil`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(reason, forKey: .reason)
        try container.encode(headers, forKey: .headers)
        try container.encodeIfPresent(age, forKey: .age)
        try container.encodeIfPresent(ttl, forKey: .ttl)
        try container.encode(source, forKey: .source)
        try container.encode(outcome, forKey: .outcome)
        try container.encodeIfPresent(originError, forKey: .originError)
        try container.encodeIfPresent(originStatus, forKey: .originStatus)
    }
}

/// `coalesced`: the request shared another request's origin fetch.
public struct Coalesced: Sendable, Hashable, Codable {
    /// The request that went to the origin.
    public var leaderID: UInt64

    /// Creates the payload.
    public init(leaderID: UInt64) { self.leaderID = leaderID }
}

/// `requestFinished`: the request completed (successfully or not).
public struct RequestFinished: Sendable, Hashable, Codable {
    /// The final status code (0 when no response could be produced).
    public var status: Int
    /// Seconds from `requestStarted` to completion.
    public var latency: Double
    /// Bytes that crossed the network for this request (body of a 200; 0 for a 304 or hit).
    public var bytesFromNetwork: Int
    /// Body bytes served from the store.
    public var bytesFromCache: Int
    /// The outcome word.
    public var outcome: CacheOutcome
    /// Why, in words.
    public var reason: String
    /// Whether it shared another request's fetch.
    public var coalesced: Bool
    /// Whether it was the cache's own background refresh (stale-while-revalidate), which no
    /// caller waited for: traffic figures count its network bytes but not it as a request.
    /// Absent from a log line (and from logs written before it existed) means `false`.
    public var background: Bool

    /// Creates the payload.
    public init(
        status: Int, latency: Double, bytesFromNetwork: Int, bytesFromCache: Int, outcome: CacheOutcome,
        reason: String, coalesced: Bool = false, background: Bool = false
    ) {
        self.status = status
        self.latency = latency
        self.bytesFromNetwork = bytesFromNetwork
        self.bytesFromCache = bytesFromCache
        self.outcome = outcome
        self.reason = reason
        self.coalesced = coalesced
        self.background = background
    }

    private enum CodingKeys: String, CodingKey {
        case status, latency, bytesFromNetwork, bytesFromCache, outcome, reason, coalesced, background
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(Int.self, forKey: .status)
        latency = try container.decode(Double.self, forKey: .latency)
        bytesFromNetwork = try container.decode(Int.self, forKey: .bytesFromNetwork)
        bytesFromCache = try container.decode(Int.self, forKey: .bytesFromCache)
        outcome = try container.decode(CacheOutcome.self, forKey: .outcome)
        reason = try container.decode(String.self, forKey: .reason)
        coalesced = try container.decode(Bool.self, forKey: .coalesced)
        background = try container.decodeIfPresent(Bool.self, forKey: .background) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(latency, forKey: .latency)
        try container.encode(bytesFromNetwork, forKey: .bytesFromNetwork)
        try container.encode(bytesFromCache, forKey: .bytesFromCache)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(reason, forKey: .reason)
        try container.encode(coalesced, forKey: .coalesced)
        if background { try container.encode(true, forKey: .background) }
    }
}

/// `error`: something failed.
public struct ErrorInfo: Sendable, Hashable, Codable {
    /// What failed, in words a user can act on.
    public var message: String

    /// Creates the payload.
    public init(message: String) { self.message = message }
}

/// `dropped`: a slow watcher lost events.
public struct Dropped: Sendable, Hashable, Codable {
    /// How many events were not delivered.
    public var count: Int

    /// Creates the payload.
    public init(count: Int) { self.count = count }
}

/// `command`: a command arrived (from the dashboard, an attached dashboard or the API).
public struct CommandInfo: Sendable, Hashable, Codable {
    /// `purge`, `purgeAll`, `purgeExpired`, `refresh` or `reload`.
    public var name: String
    /// The key it targets, if any.
    public var key: String?

    /// Creates the payload.
    public init(name: String, key: String? = nil) {
        self.name = name
        self.key = key
    }
}
