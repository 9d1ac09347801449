import Foundation
import HTTPTypes

/// What the caching rules need to know about a stored response: its status and header fields,
/// when it was requested and received (for age), and the request values its `Vary` selected.
/// The body lives with the store; the rules never read it.
///
/// The caching-relevant fields are parsed once, when the value is made.
public struct StoredResponse: Sendable, Hashable {
    /// The primary key it is stored under.
    public let key: CacheKey
    /// Status and header fields as stored (hop-by-hop fields removed).
    public let response: HTTPResponse
    /// When the request that produced it was sent (`request_time` of RFC 9111 §4.2.3).
    public let requestTime: Date
    /// When the response was received (`response_time`).
    public let responseTime: Date
    /// The secondary key: the request's values of the fields named by `Vary`.
    public let varyKey: VaryKey

    // MARK: Parsed once

    /// The response's Cache-Control.
    public let cacheControl: CacheControl
    /// `Date`, if present and valid.
    public let date: Date?
    /// `Expires`: absent, a valid date, or present but invalid (which means "already expired").
    public let expires: ExpiresValue
    /// `Last-Modified`, if present and valid.
    public let lastModified: Date?
    /// `ETag`, if present and valid.
    public let entityTag: EntityTag?
    /// `Age` in seconds, if present and valid: the first member of a list counts and invalid
    /// values are ignored (RFC 9111 §5.1).
    public let ageHeader: Int?

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
        self.key = key
        self.response = response
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varyKey = varyKey
        let fields = response.headerFields
        cacheControl = CacheControl(fields)
        date = fields.value(of: .date).flatMap { HTTPDate.parse($0) }
        if let raw = fields.firstValue(of: .expires) {
            expires = HTTPDate.parse(raw).map(ExpiresValue.date) ?? .invalid(raw)
        } else {
            expires = .absent
        }
        lastModified = fields.value(of: .lastModified).flatMap { HTTPDate.parse($0) }
        entityTag = fields.firstValue(of: .eTag).flatMap { EntityTag(parsing: $0) }
        // §5.1: a list-based Age counts with its first member; an invalid one is ignored.
        ageHeader = fields.firstValue(of: .age).flatMap { FieldListScanner.members($0).first }.flatMap { DeltaSeconds.parse($0).value }
    }

    /// The HTTP status code.
    public var status: Int { response.status.code }

    /// Whether the response carries a validator usable for a conditional request.
    public var hasValidator: Bool { entityTag != nil || lastModified != nil }

    /// The `Vary` field names of the response.
    public var varyNames: [String] { varyKey.isWildcard ? ["*"] : varyKey.fields.map(\.name) }

    /// A copy with other header fields and times (after a 304 freshened it).
    public func replacing(headerFields: HTTPFields, requestTime: Date, responseTime: Date) -> StoredResponse {
        var response = self.response
        response.headerFields = headerFields
        return StoredResponse(
            key: key, response: response, requestTime: requestTime, responseTime: responseTime, varyKey: varyKey)
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
