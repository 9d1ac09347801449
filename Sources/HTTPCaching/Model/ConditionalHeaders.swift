public import Foundation
public import HTTPTypes

/// The validators of a conditional request (RFC 9111 §4.3.1): `If-None-Match` with every
/// stored entity tag and `If-Modified-Since` with the stored `Last-Modified`.
///
/// The field values are written once, when the value is made — for the usual case of one
/// stored response, taken as they were written when that response was stored
/// (``StoredResponse/ifNoneMatchValue``) — so sending the request and reporting it copy them.
public struct ConditionalHeaders: Sendable, Hashable {
    /// Entity tags for `If-None-Match` (empty: none sent).
    public let ifNoneMatch: [EntityTag]
    /// The date for `If-Modified-Since` (`nil`: none sent).
    public let ifModifiedSince: Date?
    /// The `If-None-Match` value, e.g. `"v2", W/"v1"`.
    public let ifNoneMatchValue: String?
    /// The `If-Modified-Since` value as an IMF-fixdate.
    public let ifModifiedSinceValue: String?

    /// Creates conditional headers; both parts are optional.
    public init(ifNoneMatch: [EntityTag], ifModifiedSince: Date?) {
        self.init(
            ifNoneMatch: ifNoneMatch, ifModifiedSince: ifModifiedSince,
            ifNoneMatchValue: ifNoneMatch.isEmpty ? nil : ifNoneMatch.map(\.description).joined(separator: ", "),
            ifModifiedSinceValue: ifModifiedSince.map(HTTPDate.format))
    }

    /// Creates conditional headers with their field values already written (they must be the
    /// values of `ifNoneMatch` and `ifModifiedSince`).
    init(ifNoneMatch: [EntityTag], ifModifiedSince: Date?, ifNoneMatchValue: String?, ifModifiedSinceValue: String?) {
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.ifNoneMatchValue = ifNoneMatchValue
        self.ifModifiedSinceValue = ifModifiedSinceValue
    }

    /// Whether there is any validator to send.
    public var isEmpty: Bool { ifNoneMatch.isEmpty && ifModifiedSince == nil }

    /// Adds the validators to `fields`, replacing any the caller had set.
    public func apply(to fields: inout HTTPFields) {
        fields[.ifNoneMatch] = ifNoneMatchValue
        fields[.ifModifiedSince] = ifModifiedSinceValue
    }

    // MARK: Equality: the field values follow from the validators

    /// Equal when they send the same validators.
    public static func == (lhs: ConditionalHeaders, rhs: ConditionalHeaders) -> Bool {
        lhs.ifNoneMatch == rhs.ifNoneMatch && lhs.ifModifiedSince == rhs.ifModifiedSince
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ifNoneMatch)
        hasher.combine(ifModifiedSince)
    }
}
