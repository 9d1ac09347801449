import Foundation
import HTTPCaching
import HTTPTypes

/// A client's own conditional GET or HEAD, evaluated against the 200 the cache produced
/// (RFC 9110 §13.2.2, as RFC 9111 §4.3.2 asks of a cache): `If-None-Match` by weak comparison
/// (`*` matches any), else `If-Modified-Since` against `Last-Modified` — or, for a stored
/// response without one, against its `Date` (RFC 9111 §4.3.2; a response just fetched was judged
/// by the origin, which had the client's conditional). When the condition is false the client
/// gets a 304 instead of the body it already has.
enum ConditionalRequest {
    /// The fields a 304 keeps from the 200 it stands for (RFC 9110 §15.4.5), plus what the
    /// proxy adds and `Last-Modified`, which lets the client's cache update its copy.
    private static let keptFields: [String] = [
        "cache-control", "content-location", "date", "etag", "expires", "vary", "last-modified", "age", "via", "cache-status",
    ]

    /// The 304 to send instead of `response` to `request`, or `nil` when `response` should be
    /// sent as it is.
    static func notModified(for request: IncomingRequest, response: HTTPResponse, fromStore: Bool, now: Date) -> HTTPResponse? {
        guard response.status.code == 200, request.method == .get || request.method == .head else { return nil }
        let fields = request.fields
        if fields.contains(.ifNoneMatch) {
            let list = EntityTagList(parsing: fields[values: .ifNoneMatch].joined(separator: ", "))
            if case .any = list { return make304(from: response) }
            guard let value = response.headerFields[.eTag], let tag = EntityTag(parsing: value),
                list.containsWeakMatch(for: tag)
            else { return nil }
            return make304(from: response)
        }
        guard let since = fields[.ifModifiedSince].flatMap({ HTTPDate.parse($0, reference: now) }),
            let modified = (response.headerFields[.lastModified] ?? (fromStore ? response.headerFields[.date] : nil))
                .flatMap({ HTTPDate.parse($0, reference: now) }),
            modified <= since
        else { return nil }
        return make304(from: response)
    }

    /// The 304 that answers `response`'s conditional request: its fields that describe it.
    static func make304(from response: HTTPResponse) -> HTTPResponse {
        var fields = HTTPFields()
        for field in response.headerFields where keptFields.contains(field.name.canonicalName) { fields.append(field) }
        return HTTPResponse(status: .notModified, headerFields: fields)
    }
}
