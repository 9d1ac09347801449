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

    /// Resolves an absolute or origin-relative reference against an absolute URI.
    static func resolve(_ reference: String, against base: String) -> String? {
        if reference.contains("://") { return reference }
        guard let origin = origin(of: base) else { return nil }
        if reference.hasPrefix("//") { return (base.hasPrefix("https") ? "https:" : "http:") + reference }
        if reference.hasPrefix("/") { return origin + reference }
        // A relative path: replace the last segment of the base path.
        let path = base.dropFirst(origin.count).split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "/"
        return origin + directory + reference
    }

    /// `scheme://host[:port]` of a normalised URI (a ``CacheKey``'s).
    package static func origin(of uri: String) -> String? {
        guard let schemeEnd = uri.range(of: "://") else { return nil }
        let rest = uri[schemeEnd.upperBound...]
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        return String(uri[..<end])
    }
}
