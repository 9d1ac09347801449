public import HTTPTypes
public import CacheEvents
import SessionLog
public import HTTPCaching
public import TrafficFilter

/// Everything the dashboard knows about one request: a row of the Requests view and the
/// contents of its detail pane, assembled from the request's events as they arrive.
public struct RequestRecord: Sendable, Hashable {
    /// The client's request ID.
    public var id: UInt64
    /// Session seconds when the request started.
    public var started: Double
    /// `GET`, `POST`, …
    public var method: String
    /// The absolute URL (untrusted: escape before showing).
    public var url: String
    /// The primary cache key (`GET http://…`), empty when the request has none.
    public var cacheKey: String
    /// The cache policy's name.
    public var policy: String
    /// The request's header fields.
    public var requestHeaders: HTTPFields
    /// The lookup verdict, once known.
    public var lookup: Lookup?
    /// The conditional request sent, if any.
    public var revalidation: RevalidationSent?
    /// The 304 that freshened the stored response, if any.
    public var notModified: NotModified?
    /// The status of a full answer to a conditional request, if any.
    public var modifiedStatus: Int?
    /// The request whose fetch this one shared, if any.
    public var coalescedWith: UInt64?
    /// The response as handed to the caller.
    public var served: Served?
    /// What the store kept from this request's response, if anything.
    public var stored: Stored?
    /// How the request ended.
    public var finished: RequestFinished?
    /// Session seconds when it ended.
    public var finishedAt: Double?
    /// The last error reported for it.
    public var errorMessage: String?
    /// The attached instance it belongs to (``CacheEvent/instance``; 0 with one instance).
    public var instance: UInt16 = 0
    /// That instance's name (``InstanceRoster``); empty while the dashboard watches one.
    public var instanceName = ""
    /// Session seconds when its instance went away (the connection dropped) while it was
    /// open: it will never be seen to finish, and is no longer counted in flight.
    public var cutOffAt: Double?

    /// A record for a request that has just started.
    public init(id: UInt64, started: Double, method: String, url: String, cacheKey: String, policy: String,
                requestHeaders: HTTPFields = [:]) {
        self.id = id
        self.started = started
        self.method = method
        self.url = url
        self.cacheKey = cacheKey
        self.policy = policy
        self.requestHeaders = requestHeaders
    }

    /// The outcome, once served or finished.
    public var outcome: CacheOutcome? { finished?.outcome ?? served?.outcome }

    /// Why it had its outcome (the lookup's reason while it is still in flight).
    public var reason: String { finished?.reason ?? served?.reason ?? lookup?.reason ?? "" }

    /// The final status code (0 before it is known or when no response was produced).
    public var status: Int { finished?.status ?? served?.status ?? 0 }

    /// Whether the request has finished.
    public var isFinished: Bool { finished != nil }

    /// Whether it was cut off: open when its instance went away, so its end was never seen.
    public var isCutOff: Bool { cutOffAt != nil && finished == nil }

    /// Whether this is the cache's own background refresh (stale-while-revalidate), not a
    /// request the app made: known from its start (policy `background`) or from its events.
    public var isBackground: Bool { filterIsBackground == true }
}

/// Filters read a request row's fields from its events (`RequestFilterSubject`).
extension RequestRecord: RequestFilterSubject {
    /// The instance's name when several are attached (`instance:web`).
    public var filterInstance: String? { instanceName.isEmpty ? nil : instanceName }
}
