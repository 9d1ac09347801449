public import Foundation
public import HTTPTypes

/// The validators of a conditional request (RFC 9111 §4.3.1): `If-None-Match` with every
/// stored entity tag and `If-Modified-Since` with the stored `Last-Modified`.
public struct ConditionalHeaders: Sendable, Hashable {
    /// Entity tags for `If-None-Match` (empty: none sent).
    public let ifNoneMatch: [EntityTag]
    /// The date for `If-Modified-Since` (`nil`: none sent).
    public let ifModifiedSince: Date?

    /// Creates conditional headers; both parts are optional.
    public init(ifNoneMatch: [EntityTag], ifModifiedSince: Date?) {
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
    }

    /// Whether there is any validator to send.
    public var isEmpty: Bool { ifNoneMatch.isEmpty && ifModifiedSince == nil }

    /// The `If-None-Match` value, e.g. `"v2", W/"v1"`.
    public var ifNoneMatchValue: String? {
        ifNoneMatch.isEmpty ? nil : ifNoneMatch.map(\.description).joined(separator: ", ")
    }

    /// The `If-Modified-Since` value as an IMF-fixdate.
    public var ifModifiedSinceValue: String? { ifModifiedSince.map(HTTPDate.format) }

    /// Adds the validators to `fields`, replacing any the caller had set.
    public func apply(to fields: inout HTTPFields) {
        fields[.ifNoneMatch] = ifNoneMatchValue
        fields[.ifModifiedSince] = ifModifiedSinceValue
    }
}
