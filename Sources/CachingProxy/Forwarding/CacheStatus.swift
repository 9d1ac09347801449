import CachingClient
import HTTPCaching
import HTTPTypes
import RawStructuredFieldValues

/// One member of a `Cache-Status` field (RFC 9211): what this cache did with one request.
///
/// Written with swift-http-structured-headers' serializer, so the value is always a valid
/// structured-field list in its canonical form (RFC 8941 §4.1: no space after `;`):
/// `cachescope;hit;ttl=42`, `cachescope;fwd=stale;fwd-status=304;ttl=60`,
/// `cachescope;fwd=uri-miss;fwd-status=200;stored;ttl=60`.
struct CacheStatus: Sendable, Hashable {
    /// Why the request went to the origin (RFC 9211 §2.2).
    enum Forward: String, Sendable {
        /// Nothing was stored for the URI.
        case uriMiss = "uri-miss"
        /// Responses were stored for the URI, but none for this request's `Vary` fields.
        case varyMiss = "vary-miss"
        /// Nothing matched, or what went wrong is not known.
        case miss
        /// A stored response was stale (revalidated, or replaced, or the origin failed).
        case stale
        /// The method is not cacheable (POST, PUT, DELETE, …).
        case method
        /// The request's directives or the policy did not allow a stored response.
        case request
    }

    var hit = false
    var forward: Forward?
    var forwardStatus: Int?
    var timeToLive: Double?
    var stored = false
    var collapsed = false
    /// A token saying more (`stale-if-error`, `origin-unreachable`).
    var detail: String?

    /// What the caching client did for `response`, a response to a `method` request.
    init(_ response: ClientResponse, method: HTTPRequest.Method) {
        let status = response.response.status.code
        collapsed = response.coalesced
        timeToLive = response.timeToLive
        switch response.outcome {
        case .hit:
            hit = true
        case .stale:
            if response.fromNetwork {
                // The origin failed and stale-if-error allowed the stored response.
                forward = .stale
                detail = "stale-if-error"
            } else {
                hit = true  // stale-while-revalidate or max-stale: served without forwarding
            }
        case .revalidated:
            forward = response.forwardCause == .request ? .request : .stale
            forwardStatus = 304
        case .modified:
            forward = response.forwardCause == .request ? .request : .stale
            forwardStatus = status
            stored = response.timeToLive != nil
        case .miss:
            forward = Self.forward(response.forwardCause)
            forwardStatus = status
            stored = response.timeToLive != nil
        case .bypass:
            forward = method == .get || method == .head ? .request : .method
            forwardStatus = status
            timeToLive = nil
        case .error:
            detail = "only-if-cached"  // RFC 9111 §5.2.1.7: not forwarded, nothing stored
            timeToLive = nil
        }
    }

    /// RFC 9211 §2.2's `fwd` for a miss: nothing stored for the URI, nothing for this
    /// request's `Vary` fields, a stored response that was stale (fetched in full: no
    /// validator), or one the request did not allow.
    private static func forward(_ cause: ForwardCause?) -> Forward {
        switch cause {
        case .varyMismatch: .varyMiss
        case .stale: .stale
        case .request: .request
        case .method: .method
        case .notStored, nil: .uriMiss
        }
    }

    /// A status for a request the proxy forwarded without getting a response.
    init(failure detail: String) {
        forward = .miss
        self.detail = detail
    }

    /// The field value for a cache called `name`, e.g. `cachescope; hit; ttl=42`; `nil` when
    /// `name` is not a structured-field token (``CachingProxyConfiguration/validate()`` refuses
    /// such names, so this does not happen in practice).
    func fieldValue(cacheName name: String) -> String? {
        var parameters = OrderedMap<String, RFC9651BareItem>()
        if hit { parameters["hit"] = .bool(true) }
        if let forward { parameters["fwd"] = .token(forward.rawValue) }
        if let forwardStatus { parameters["fwd-status"] = .integer(Int64(forwardStatus)) }
        if stored { parameters["stored"] = .bool(true) }
        if collapsed { parameters["collapsed"] = .bool(true) }
        if let timeToLive { parameters["ttl"] = .integer(Self.wholeSeconds(timeToLive)) }
        if let detail { parameters["detail"] = .token(detail) }
        var serializer = StructuredFieldValueSerializer()
        let member = ItemOrInnerList.item(Item(bareItem: RFC9651BareItem.token(name), parameters: parameters))
        guard let bytes = try? serializer.writeListFieldValue([member]) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `name` can name the cache: a structured-field token (RFC 8941 §3.3.4).
    static func isValidCacheName(_ name: String) -> Bool {
        var serializer = StructuredFieldValueSerializer()
        return (try? serializer.writeItemFieldValue(Item(bareItem: RFC9651BareItem.token(name), parameters: OrderedMap<String, RFC9651BareItem>()))) != nil
    }

    /// The same status with its `ttl` as the field value writes it (whole seconds, within what
    /// a structured-field integer holds): two statuses the same as written say the same text.
    var asWritten: CacheStatus {
        var written = self
        written.timeToLive = timeToLive.map { Double(Self.wholeSeconds($0)) }
        return written
    }

    /// Seconds toward zero, within what a structured-field integer holds: `41.7` is 41, `-3.2`
    /// is -3.
    private static func wholeSeconds(_ seconds: Double) -> Int64 {
        let limit = 999_999_999_999_999.0
        guard seconds.isFinite else { return seconds > 0 ? Int64(limit) : -Int64(limit) }
        return Int64(min(max(seconds, -limit), limit).rounded(.towardZero))
    }
}
