// MARK: - The catalogue of endpoints

/// Every kind of endpoint the demo origin serves: its path pattern and what it demonstrates.
///
/// The same list drives the `cachescope origin` endpoint listing and the workload mix, so the
/// two can never disagree.
///
/// | pattern | response |
/// | --- | --- |
/// | `/max-age/{N}` | `Cache-Control: max-age=N`, strong ETag, Last-Modified |
/// | `/s-maxage/{N}` | `public, max-age=1, s-maxage=N`, ETag |
/// | `/no-cache` | `no-cache`, ETag: revalidate every time |
/// | `/last-modified` | only Last-Modified (10 days before start): heuristic freshness |
/// | `/no-store` | `no-store` |
/// | `/private/{N}` | `private, max-age=N`, ETag |
/// | `/vary/lang` | `Vary: Accept-Language`, `max-age=60`; body and ETag follow the language |
/// | `/rotating/{N}` | new content and ETag every N seconds, `max-age=1` |
/// | `/immutable` | `max-age=31536000, immutable`, ETag |
/// | `/swr/{maxAge}/{swr}` | `max-age, stale-while-revalidate`, ETag |
/// | `/sie/{maxAge}/{sie}` | `max-age, stale-if-error`; 200 once per target, then 500 |
/// | `/slow/{ms}` | answered after ms milliseconds (≤ 30000), `max-age=5` |
/// | `/large/{KB}` | exactly KB × 1024 bytes (≤ 1048576 KB, made as sent), `max-age=60`, ETag |
/// | `/redirect/{code}/{N}` | 301/302/307/308 to `/max-age/N`; 301 and 308 cacheable for an hour |
/// | `/status/{code}` | that status, no caching headers |
/// | `/items/{id}` | GET: `max-age=60`, versioned ETag, `Surrogate-Key: items item-{id}`; POST/PUT/PATCH/DELETE bump the version (the answer counts the body received) |
/// | `/auth` | 401 without `Authorization`; else `max-age=60` |
/// | `/cookie` | `Set-Cookie`, `private, max-age=30` |
/// | `/expires/{N}` | no Cache-Control; `Expires` = now + N s, ETag |
///
/// Every 200 answers `If-None-Match` (weak comparison, lists, `*`) and, when it has
/// Last-Modified and the request has no `If-None-Match`, `If-Modified-Since` with 304.
/// Unknown paths get 404, malformed or out-of-range parameters 400.
public enum EndpointKind: String, CaseIterable, Sendable, Hashable {
    /// `/max-age/{N}`: explicit freshness.
    case maxAge
    /// `/s-maxage/{N}`: a longer lifetime for shared caches.
    case sMaxAge
    /// `/no-cache`: revalidate on every use.
    case noCache
    /// `/last-modified`: heuristic freshness.
    case lastModified
    /// `/no-store`: never stored.
    case noStore
    /// `/private/{N}`: private caches only.
    case privateMaxAge
    /// `/vary/lang`: one variant per `Accept-Language`.
    case varyLanguage
    /// `/rotating/{N}`: content that changes every N seconds.
    case rotating
    /// `/immutable`: never revalidated while fresh.
    case immutable
    /// `/swr/{maxAge}/{swr}`: stale-while-revalidate.
    case staleWhileRevalidate
    /// `/sie/{maxAge}/{sie}`: stale-if-error, with an origin that fails after the first answer.
    case staleIfError
    /// `/slow/{ms}`: a delayed answer.
    case slow
    /// `/large/{KB}`: a large body.
    case large
    /// `/redirect/{code}/{N}`: permanent and temporary redirects.
    case redirect
    /// `/status/{code}`: error and other status codes.
    case status
    /// `/items/{id}`: invalidation by unsafe methods.
    case items
    /// `/auth`: responses to requests with credentials.
    case auth
    /// `/cookie`: a response that sets a cookie.
    case cookie
    /// `/expires/{N}`: freshness from `Expires`.
    case expires

    /// The path pattern, e.g. `/max-age/{N}`.
    public var pattern: String {
        switch self {
        case .maxAge: "/max-age/{N}"
        case .sMaxAge: "/s-maxage/{N}"
        case .noCache: "/no-cache"
        case .lastModified: "/last-modified"
        case .noStore: "/no-store"
        case .privateMaxAge: "/private/{N}"
        case .varyLanguage: "/vary/lang"
        case .rotating: "/rotating/{N}"
        case .immutable: "/immutable"
        case .staleWhileRevalidate: "/swr/{maxAge}/{swr}"
        case .staleIfError: "/sie/{maxAge}/{sie}"
        case .slow: "/slow/{ms}"
        case .large: "/large/{KB}"
        case .redirect: "/redirect/{code}/{N}"
        case .status: "/status/{code}"
        case .items: "/items/{id}"
        case .auth: "/auth"
        case .cookie: "/cookie"
        case .expires: "/expires/{N}"
        }
    }

    /// One line saying what the endpoint answers.
    public var summary: String {
        switch self {
        case .maxAge: "Cache-Control: max-age=N, strong ETag, Last-Modified"
        case .sMaxAge: "public, max-age=1, s-maxage=N (shared caches keep it longer), ETag"
        case .noCache: "no-cache + ETag: stored, revalidated on every use (304 on match)"
        case .lastModified: "only Last-Modified, 10 days old: heuristic freshness"
        case .noStore: "no-store: never stored"
        case .privateMaxAge: "private, max-age=N: private caches only"
        case .varyLanguage: "Vary: Accept-Language, max-age=60: one variant per language"
        case .rotating: "content and ETag change every N seconds, max-age=1"
        case .immutable: "max-age=31536000, immutable"
        case .staleWhileRevalidate: "max-age, stale-while-revalidate, ETag"
        case .staleIfError: "max-age, stale-if-error: 200 the first time, 500 ever after"
        case .slow: "answers after ms milliseconds (at most 30000), max-age=5"
        case .large: "exactly KB x 1024 bytes (at most 1048576 KB), max-age=60, ETag"
        case .redirect: "301/302/307/308 to /max-age/N; 301 and 308 cacheable for an hour"
        case .status: "that status code, no caching headers"
        case .items: "GET: max-age=60, versioned ETag; POST/PUT/PATCH/DELETE bump the version"
        case .auth: "401 without Authorization, else max-age=60"
        case .cookie: "Set-Cookie: session=abc, private, max-age=30"
        case .expires: "no Cache-Control, Expires = now + N seconds"
        }
    }
}
