public import Foundation
public import HTTPTypes
import Synchronization

/// What the caching rules need to know about a stored response: its status and header fields,
/// when it was requested and received (for age), and the request values its `Vary` selected.
/// The body lives with the store; the rules never read it.
///
/// The caching-relevant fields are parsed once, when the value is made, with
/// ``responseTime`` as "now" (the reference for two-digit years in RFC 850 dates): the clock
/// reading when the response was received, so a value decoded later parses the same. So are the
/// values a conditional request sends (``ifNoneMatchValue``, ``ifModifiedSinceValue``): a
/// response is stored once and may be revalidated many times. The value is
/// immutable and kept in one shared box, so copying it — every lookup hands out the stored
/// candidates — costs one reference count rather than one per header string.
public struct StoredResponse: Sendable, Hashable {
    private let storage: Storage

    /// The primary key it is stored under.
    public var key: CacheKey { storage.key }
    /// Status and header fields as stored (hop-by-hop fields removed).
    public var response: HTTPResponse { storage.response }
    /// When the request that produced it was sent (`request_time` of RFC 9111 §4.2.3).
    public var requestTime: Date { storage.requestTime }
    /// When the response was received (`response_time`).
    public var responseTime: Date { storage.responseTime }
    /// The secondary key: the request's values of the fields named by `Vary`.
    public var varyKey: VaryKey { storage.varyKey }

    // MARK: Parsed once

    /// The response's Cache-Control.
    public var cacheControl: CacheControl { storage.cacheControl }
    /// `Date`, if present and valid.
    public var date: Date? { storage.date }
    /// `Expires`: absent, a valid date, or present but invalid (which means "already expired").
    public var expires: ExpiresValue { storage.expires }
    /// `Last-Modified`, if present and valid.
    public var lastModified: Date? { storage.lastModified }
    /// `ETag`, if present and valid.
    public var entityTag: EntityTag? { storage.entityTag }
    /// `Age` in seconds, if present and valid: the first member of a list counts and invalid
    /// values are ignored (RFC 9111 §5.1).
    public var ageHeader: Int? { storage.ageHeader }
    /// Whether the response says `Pragma: no-cache` and has no `Cache-Control` field.
    ///
    /// RFC 9111 §5.4 defines `Pragma` for requests only; like browsers and OkHttp, the rules
    /// read it in a response as `Cache-Control: no-cache` (stored, validated before every
    /// reuse). Any `Cache-Control` field, whatever its directives, makes it ignored.
    var pragmaNoCache: Bool { storage.pragmaNoCache }

    // MARK: Derived once, for revalidation

    /// The `If-None-Match` value that validates this response: its `ETag` as an entity tag
    /// (`"v1"`, `W/"v1"`), or `nil` without one. Written when the value is made, so a
    /// revalidation only copies it.
    public var ifNoneMatchValue: String? { storage.ifNoneMatchValue }
    /// The `If-Modified-Since` value that validates this response: its `Last-Modified` as an
    /// IMF-fixdate, or `nil` without one. Written when the value is made.
    public var ifModifiedSinceValue: String? { storage.ifModifiedSinceValue }

    /// The `Expires` field of a response.
    public enum ExpiresValue: Sendable, Hashable {
        /// No `Expires` field.
        case absent
        /// A valid HTTP-date.
        case date(Date)
        /// Present but not a valid HTTP-date (e.g. `0`): the response is already expired.
        case invalid(String)
    }

    /// Creates a stored response, parsing its caching fields.
    public init(key: CacheKey, response: HTTPResponse, requestTime: Date, responseTime: Date, varyKey: VaryKey) {
        storage = Storage(key: key, response: response, requestTime: requestTime, responseTime: responseTime, varyKey: varyKey)
    }

    /// The HTTP status code.
    public var status: Int { storage.status }

    /// Whether the response carries a validator usable for a conditional request.
    public var hasValidator: Bool { storage.entityTag != nil || storage.lastModified != nil }

    /// The `Vary` field names of the response.
    public var varyNames: [String] { varyKey.isWildcard ? ["*"] : varyKey.fields.map(\.name) }

    /// A copy with other header fields and times (after a 304 freshened it). The conditional
    /// values are carried over when the validators are unchanged, as a 304 usually leaves them.
    public func replacing(headerFields: HTTPFields, requestTime: Date, responseTime: Date) -> StoredResponse {
        var response = self.response
        response.headerFields = headerFields
        return StoredResponse(
            storage: Storage(
                key: key, response: response, requestTime: requestTime, responseTime: responseTime, varyKey: varyKey,
                previous: storage))
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    // MARK: Served fields, remembered

    /// The header fields it was last served with at an age of `age` whole seconds, or else
    /// those `make` builds, remembered for the next hit: a hot entry is served many times a
    /// second, and its fields change only when its `Age` does.
    func servedFields(age: Int, make: () -> HTTPFields) -> HTTPFields {
        if let remembered = storage.served.withLock({ $0 }), remembered.age == age { return remembered.fields }
        let fields = make()
        storage.served.withLock { $0 = ServedFields(age: age, fields: fields) }
        return fields
    }

    /// Header fields as served at one age.
    private struct ServedFields: Sendable {
        let age: Int
        let fields: HTTPFields
    }

    // MARK: Equality

    /// Equal when made from equal parts (the parsed fields follow from them).
    public static func == (lhs: StoredResponse, rhs: StoredResponse) -> Bool {
        if lhs.storage === rhs.storage { return true }
        let (l, r) = (lhs.storage, rhs.storage)
        return l.key == r.key && l.requestTime == r.requestTime && l.responseTime == r.responseTime && l.varyKey == r.varyKey
            && l.response == r.response
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.key)
        hasher.combine(storage.response)
        hasher.combine(storage.requestTime)
        hasher.combine(storage.responseTime)
        hasher.combine(storage.varyKey)
    }

    /// The parts and what is parsed from them, shared by every copy.
    private final class Storage: Sendable {
        let key: CacheKey
        let response: HTTPResponse
        let requestTime: Date
        let responseTime: Date
        let varyKey: VaryKey
        let cacheControl: CacheControl
        let date: Date?
        let expires: ExpiresValue
        let lastModified: Date?
        let entityTag: EntityTag?
        let ageHeader: Int?
        let pragmaNoCache: Bool
        let ifNoneMatchValue: String?
        let ifModifiedSinceValue: String?
        /// The status code (`HTTPResponse` keeps it as text and parses it on every read).
        let status: Int
        /// The fields of the last hit served without revalidation (not a part: never compared).
        let served = Mutex<ServedFields?>(nil)

        /// `previous`: the response this one freshens, whose conditional values are reused when
        /// its validators are the same.
        init(key: CacheKey, response: HTTPResponse, requestTime: Date, responseTime: Date, varyKey: VaryKey, previous: Storage? = nil) {
            self.key = key
            self.response = response
            self.requestTime = requestTime
            self.responseTime = responseTime
            self.varyKey = varyKey
            status = response.status.code
            let fields = response.headerFields
            // After a 304 most fields are as before: what parses into allocated values is
            // reused when its field values are unchanged.
            let previousFields = previous?.response.headerFields
            if let previous, let previousFields, Self.sameValues(of: .cacheControl, fields, previousFields) {
                cacheControl = previous.cacheControl
            } else {
                cacheControl = CacheControl(fields)
            }
            // The dates are read as the recipient saw them on arrival (RFC 9110 §5.6.7).
            date = fields.value(of: .date).flatMap { HTTPDate.parse($0, reference: responseTime) }
            if let raw = fields.firstValue(of: .expires) {
                expires = HTTPDate.parse(raw, reference: responseTime).map(ExpiresValue.date) ?? .invalid(raw)
            } else {
                expires = .absent
            }
            lastModified = fields.value(of: .lastModified).flatMap { HTTPDate.parse($0, reference: responseTime) }
            if let previous, let previousFields, Self.sameValues(of: .eTag, fields, previousFields) {
                entityTag = previous.entityTag
            } else {
                entityTag = fields.firstValue(of: .eTag).flatMap { EntityTag(parsing: $0) }
            }
            // §5.1: a list-based Age counts with its first member; an invalid one is ignored.
            ageHeader = fields.firstValue(of: .age).flatMap { FieldListScanner.members($0).first }.flatMap {
                DeltaSeconds.parse($0).value
            }
            pragmaNoCache = CacheRules.pragmaNoCache(fields)
            // A conditional request's fields, written once here rather than on every revalidation.
            ifNoneMatchValue = entityTag == previous?.entityTag ? previous?.ifNoneMatchValue : entityTag?.description
            ifModifiedSinceValue = lastModified == previous?.lastModified ? previous?.ifModifiedSinceValue : lastModified.map(HTTPDate.format)
        }

        /// Whether the fields named `name` have the same values, in the same order, in both lists.
        static func sameValues(of name: HTTPField.Name, _ lhs: HTTPFields, _ rhs: HTTPFields) -> Bool {
            var left = lhs.lazy.filter { $0.name == name }.makeIterator()
            var right = rhs.lazy.filter { $0.name == name }.makeIterator()
            while true {
                switch (left.next(), right.next()) {
                case (nil, nil): return true
                case let (l?, r?) where l.value == r.value: continue
                default: return false
                }
            }
        }
    }
}

extension StoredResponse: Codable {
    private enum CodingKeys: String, CodingKey { case key, response, requestTime, responseTime, varyKey }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            key: try container.decode(CacheKey.self, forKey: .key),
            response: try container.decode(HTTPResponse.self, forKey: .response),
            requestTime: try container.decode(Date.self, forKey: .requestTime),
            responseTime: try container.decode(Date.self, forKey: .responseTime),
            varyKey: try container.decode(VaryKey.self, forKey: .varyKey))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(response, forKey: .response)
        try container.encode(requestTime, forKey: .requestTime)
        try container.encode(responseTime, forKey: .responseTime)
        try container.encode(varyKey, forKey: .varyKey)
    }
}
