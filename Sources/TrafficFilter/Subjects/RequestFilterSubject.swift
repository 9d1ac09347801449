public import CacheEvents
public import HTTPCaching
public import HTTPTypes

/// A request as its events describe it: conform by providing the parts, and every filter
/// field comes from them — the dashboard's rows and requests assembled from a session's events
/// (``EventRequest``) are matched the same way.
///
/// - `outcome`, `reason`, `status`: the finished request's, else the served response's
///   (a request still in flight has no outcome yet; its reason is the lookup's).
/// - `ttl`, `age`: the served response's, else the lookup's.
/// - `size`: body bytes served. `tier` does not apply to requests.
/// - `h:NAME`: request header fields, then response header fields.
/// - `bg`: the policy is `background`, or its events say so.
public protocol RequestFilterSubject: FilterSubject {
    /// `GET`, `POST`, …
    var method: String { get }
    /// The absolute URL.
    var url: String { get }
    /// The cache policy's name (`background` for the cache's own refreshes).
    var policy: String { get }
    /// The request's header fields.
    var requestHeaders: HTTPFields { get }
    /// The lookup, once reported.
    var lookup: Lookup? { get }
    /// The conditional request sent, if any.
    var revalidation: RevalidationSent? { get }
    /// The response as served, once reported.
    var served: Served? { get }
    /// How it ended, once finished.
    var finished: RequestFinished? { get }
}

// The defaults are @inlinable so that each conformer's witnesses are specialized in its own
// module: reading `finished?.outcome` of a concrete record then projects one field instead
// of copying the whole optional payload, which matters when a filter runs over 10,000 rows a
// frame.
extension RequestFilterSubject {
    /// The policy name of the cache's own stale-while-revalidate refreshes.
    @inlinable public static var backgroundPolicy: String { RequestStarted.backgroundPolicy }

    /// The finished request's outcome, else the served response's.
    @inlinable public var filterOutcome: CacheOutcome? { finished?.outcome ?? served?.outcome }
    /// The finished request's reason, else the served response's, else the lookup's.
    @inlinable public var filterReason: String? { finished?.reason ?? served?.reason ?? lookup?.reason }
    /// The final status, once known.
    @inlinable public var filterStatus: Int? {
        let status = finished?.status ?? served?.status ?? 0
        return status > 0 ? status : nil
    }
    /// The request method.
    @inlinable public var filterMethod: String? { method }
    /// The URL.
    @inlinable public var filterURL: String? { url }
    /// The served response's TTL, else the lookup's.
    @inlinable public var filterTTL: Double? { served?.ttl ?? lookup?.ttl }
    /// The served response's age, else the lookup's.
    @inlinable public var filterAge: Double? { served?.age ?? lookup?.age }
    /// Body bytes served.
    @inlinable public var filterSize: Int? { served?.bytes }
    /// Whether it is the cache's own background refresh (known from its policy or its events).
    @inlinable public var filterIsBackground: Bool? {
        policy == Self.backgroundPolicy || finished?.background == true || revalidation?.background == true
    }
    /// Request header values, then response header values.
    @inlinable public func filterHeaderValues(_ name: HTTPField.Name) -> [String] {
        requestHeaders[values: name] + (served?.headers[values: name] ?? [])
    }
    /// Whether a request or response value of `name` satisfies `predicate`, read in place:
    /// collecting the values made two arrays per row, the largest cost of an `h:` filter's
    /// first frame over 10,000 rows.
    @inlinable public func filterHeaderContains(_ name: HTTPField.Name, where predicate: (String) -> Bool) -> Bool {
        for field in requestHeaders where field.name == name {
            if predicate(field.value) { return true }
        }
        guard let headers = served?.headers else { return false }
        for field in headers where field.name == name {
            if predicate(field.value) { return true }
        }
        return false
    }
}
