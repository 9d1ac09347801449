import Foundation
import HTTPCaching

/// A `Location` the origin wrote with its own address, as the proxy's clients get it: the
/// origin's scheme and authority taken off, so that the client, resolving what is left
/// against the URL it asked the proxy for, comes back through the proxy — as nginx's default
/// `proxy_redirect` does. (RFC 9110 §10.2.2 allows a relative reference there.)
enum OriginLocation {
    /// `location` without `origin`'s scheme and authority (`http://127.0.0.1:8080/login?next=/`
    /// → `/login?next=/`), its fragment kept; `nil` when it names another origin, is relative
    /// already, or what is left would itself name a host (`//evil.example/…`, `/\\evil.example`:
    /// a relative reference that leaves the origin, which the absolute one did not). Origins are
    /// compared as cache keys normalise them: letters' case, a default port written out.
    static func relative(_ location: String, from origin: ProxyOrigin) -> String? {
        guard let key = CacheKey(method: "GET", uri: location), let named = CacheRules.origin(of: key.uri), named == own(origin),
            let schemeEnd = location.range(of: "://")
        else { return nil }
        // The rest as written: after the authority, up to nothing, `/`, `?` or `#`.
        let afterScheme = location[schemeEnd.upperBound...]
        let rest = afterScheme[(afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex)...]
        let path = rest.first == "/" ? String(rest) : "/" + rest
        guard !path.hasPrefix("//"), !path.hasPrefix("/\\") else { return nil }
        return path
    }

    /// `origin`'s `scheme://host[:port]` as a cache key writes it.
    private static func own(_ origin: ProxyOrigin) -> String? {
        CacheKey(method: "GET", uri: origin.description + "/").flatMap { CacheRules.origin(of: $0.uri) }
    }
}
