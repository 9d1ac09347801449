import Foundation
public import HTTPTypes

extension CacheRules {
    /// The keys an unsafe request invalidates (RFC 9111 §4.4): when the method is not safe and
    /// the response is not an error (2xx or 3xx), the target URI and the URIs of `Location`
    /// and `Content-Location` when they have the same origin. Empty otherwise.
    public func invalidatedKeys(request: HTTPRequest, response: HTTPResponse) -> [CacheKey] {
        let method = request.method.rawValue
        guard !Self.safeMethods.contains(method), (200..<400).contains(response.status.code),
            let target = CacheKey(request)
        else { return [] }
        var keys = [CacheKey(method: "GET", uri: target.uri)!]
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let reference = response.headerFields[name],
                let resolved = Self.resolve(reference, against: target.uri),
                let key = CacheKey(method: "GET", uri: resolved),
                Self.origin(of: key.uri) == Self.origin(of: target.uri),
                !keys.contains(key)
            else { continue }
            keys.append(key)
        }
        return keys
    }

    /// Resolves a URI reference against an absolute URI as RFC 3986 §5.2 does (RFC 9110 §10.2.2
    /// and §8.7 ask it of `Location` and `Content-Location`): a query alone (`?q=1`) keeps the
    /// path, `.` and `..` segments go, a `://` in a query does not make it absolute. (Done by
    /// hand before 27 November 2026, those three were resolved wrongly, and the responses they
    /// named were not invalidated.)
    static func resolve(_ reference: String, against base: String) -> String? {
        guard !reference.isEmpty, let baseURL = URL(string: base), let url = URL(string: reference, relativeTo: baseURL) else { return nil }
        return url.absoluteString
    }

    /// `scheme://host[:port]` of a normalised URI (a ``CacheKey``'s).
    package static func origin(of uri: String) -> String? {
        guard let schemeEnd = uri.range(of: "://") else { return nil }
        let rest = uri[schemeEnd.upperBound...]
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        return String(uri[..<end])
    }
}
