// MARK: - Endpoints about explicit and heuristic freshness

extension OriginService {
    /// `/max-age/{N}`: fresh for N seconds, strong ETag and Last-Modified.
    func maxAge(_ seconds: Int, _ request: OriginRequest) -> OriginResponse {
        let policy = "max-age=\(seconds)"
        return text(request, [("Cache-Control", policy), startLastModified], detail: "Cache-Control: \(policy)")
    }

    /// `/s-maxage/{N}`: one second for private caches, N seconds for shared ones.
    func sMaxAge(_ seconds: Int, _ request: OriginRequest) -> OriginResponse {
        let policy = "public, max-age=1, s-maxage=\(seconds)"
        return text(request, [("Cache-Control", policy)], detail: "Cache-Control: \(policy)")
    }

    /// `/no-cache`: storable, but must be revalidated before every use.
    func noCache(_ request: OriginRequest) -> OriginResponse {
        text(request, [("Cache-Control", "no-cache")], detail: "Cache-Control: no-cache")
    }

    /// `/last-modified`: no Cache-Control and an old Last-Modified (10 days before start), the
    /// case where a cache may use heuristic freshness (RFC 9111 §4.2.2).
    func lastModified(_ request: OriginRequest) -> OriginResponse {
        let modified = HTTPDateFormatting.format(secondsSince1970: startTime - 10 * 86_400)
        return text(
            request, [("Last-Modified", modified)], etag: false,
            detail: "Last-Modified: \(modified) (heuristic freshness)")
    }

    /// `/no-store`: must not be stored by any cache.
    func noStore(_ request: OriginRequest) -> OriginResponse {
        text(request, [("Cache-Control", "no-store")], etag: false, detail: "Cache-Control: no-store")
    }

    /// `/private/{N}`: only a private cache may store it, for N seconds.
    func privateMaxAge(_ seconds: Int, _ request: OriginRequest) -> OriginResponse {
        let policy = "private, max-age=\(seconds)"
        return text(request, [("Cache-Control", policy)], detail: "Cache-Control: \(policy)")
    }

    /// `/immutable`: fresh for a year and never worth revalidating while fresh.
    func immutable(_ request: OriginRequest) -> OriginResponse {
        let policy = "max-age=31536000, immutable"
        return text(request, [("Cache-Control", policy), startLastModified], detail: "Cache-Control: \(policy)")
    }

    /// `/expires/{N}`: no Cache-Control; freshness comes from `Expires` = now + N seconds.
    func expires(_ seconds: Int, _ request: OriginRequest) -> OriginResponse {
        let expiry = HTTPDateFormatting.format(secondsSince1970: now + Int64(seconds))
        return text(request, [("Expires", expiry)], detail: "Expires: \(seconds) s after Date")
    }
}
