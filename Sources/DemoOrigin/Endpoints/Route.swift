// MARK: - Which endpoint a path names

/// A parsed request path: one case per endpoint, with its validated parameters.
enum Route: Equatable, Sendable {
    case maxAge(seconds: Int)
    case sMaxAge(seconds: Int)
    case noCache
    case lastModified
    case noStore
    case privateMaxAge(seconds: Int)
    case varyLanguage
    case rotating(period: Int)
    case immutable
    case staleWhileRevalidate(maxAge: Int, window: Int)
    case staleIfError(maxAge: Int, window: Int)
    case slow(milliseconds: Int)
    case large(kilobytes: Int)
    case redirect(status: Int, maxAge: Int)
    case status(code: Int)
    case item(id: String)
    case auth
    case cookie
    case expires(seconds: Int)
}

/// Why a path does not name an endpoint.
enum RouteError: Error, Equatable, Sendable {
    /// No endpoint has this path; the message may suggest the right shape.
    case notFound(String)
    /// The endpoint exists but a parameter is malformed or out of range.
    case badRequest(String)
}

// MARK: Limits

/// The largest parameter values the origin accepts; larger ones get a 400 naming the limit.
enum RouteLimits {
    /// Seconds in freshness directives: RFC 9111 §1.2.2 caps delta-seconds at 2^31.
    static let seconds = 0...2_147_483_647
    /// `/slow/{ms}`: at most 30 s so a typo cannot hang a client for ever.
    static let slowMilliseconds = 0...30_000
    /// `/large/{KB}`: at most 1 GiB (made as it is sent, so it costs the origin little).
    static let largeKilobytes = 0...1_048_576
    /// `/rotating/{N}`: a period of at least one second.
    static let rotationPeriod = 1...2_147_483_647
    /// `/redirect/{code}/{N}`: the redirect codes whose caching differs.
    static let redirectCodes: Set<Int> = [301, 302, 307, 308]
    /// `/status/{code}`: final status codes.
    static let statusCodes = 200...599
    /// `/items/{id}`: the longest item identifier.
    static let itemIDLength = 64
}
