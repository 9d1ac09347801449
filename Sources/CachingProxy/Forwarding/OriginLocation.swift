import HTTPCaching

/// A `Location` the origin wrote with its own address, as the proxy's clients get it: the
/// origin's scheme and authority taken off, so that the client, resolving what is left
/// against the URL it asked the proxy for, comes back through the proxy — as nginx's default
/// `proxy_redirect` does. (RFC 9110 §10.2.2 allows a relative reference there.)
enum OriginLocation {
    /// `location` without `origin`'s scheme and authority (`http://127.0.0.1:8080/login?next=/`
    /// → `/login?next=/`); `nil` when it names another origin or is relative already. Origins
    /// are compared as cache keys normalise them: letters' case, a default port written out.
    static func relative(_ location: String, from origin: ProxyOrigin) -> String? {
        guard let key = CacheKey(method: "GET", uri: location), let named = CacheRules.origin(of: key.uri),
            let ownKey = CacheKey(method: "GET", uri: origin.description + "/"), let own = CacheRules.origin(of: ownKey.uri),
            named == own
        else { return nil }
        let rest = key.uri.dropFirst(named.count)
        return rest.isEmpty ? "/" : String(rest)
    }
}
