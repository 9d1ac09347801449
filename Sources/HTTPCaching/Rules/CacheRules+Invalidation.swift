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
    /// and §8.7 ask it of `Location` and `Content-Location`): an absolute reference as it is, a
    /// query alone (`?q=1`) keeps the path, `.` and `..` segments go, a fragment is dropped.
    /// Over the text as written — nothing re-encoded, so the result names the stored key the
    /// way the request did. (Done naively before 27 November 2026, the first three were
    /// resolved wrongly, and the responses they named were not invalidated.)
    static func resolve(_ reference: String, against base: String) -> String? {
        let reference = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if let colon = reference.firstIndex(of: ":"), reference.first?.isLetter == true,
            reference[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        {
            return reference  // it has a scheme
        }
        guard let origin = origin(of: base), let schemeEnd = base.range(of: "://") else { return nil }
        if reference.hasPrefix("//") { return base[..<schemeEnd.lowerBound] + ":" + reference }
        let (basePath, baseQuery) = pathAndQuery(base.dropFirst(origin.count))
        let (path, query) = pathAndQuery(Substring(reference))
        guard !path.isEmpty else {
            return origin + (basePath.isEmpty ? "/" : basePath) + ((query ?? baseQuery).map { "?" + $0 } ?? "")
        }
        let merged: Substring
        if path.hasPrefix("/") {
            merged = path
        } else {
            let directory = basePath.lastIndex(of: "/").map { basePath[...$0] } ?? "/"
            merged = Substring(directory + path)
        }
        return origin + removingDotSegments(merged) + (query.map { "?" + $0 } ?? "")
    }

    /// A path and, when there is one, its query (without the `?`).
    private static func pathAndQuery(_ text: Substring) -> (path: Substring, query: Substring?) {
        guard let mark = text.firstIndex(of: "?") else { return (text, nil) }
        return (text[..<mark], text[text.index(after: mark)...])
    }

    /// An absolute path without its `.` and `..` segments (RFC 3986 §5.2.4).
    static func removingDotSegments(_ path: Substring) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var kept: [Substring] = []
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                if last { kept.append("") }
            case "..":
                if kept.count > 1 { kept.removeLast() }
                if last { kept.append("") }
            default:
                kept.append(segment)
            }
        }
        let joined = kept.joined(separator: "/")
        return joined.hasPrefix("/") ? joined : "/" + joined
    }

    /// `scheme://host[:port]` of a normalised URI (a ``CacheKey``'s).
    package static func origin(of uri: String) -> String? {
        guard let schemeEnd = uri.range(of: "://") else { return nil }
        let rest = uri[schemeEnd.upperBound...]
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        return String(uri[..<end])
    }
}
