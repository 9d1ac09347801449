import HTTPCaching
import HTTPTypes

/// The request a redirect leads to (RFC 9110 §15.4): its method, and which of the original
/// request's header fields it keeps.
enum RedirectHop {
    /// Fields that identify the user to the first origin, not given to another.
    private static let credentials: [HTTPField.Name] = [.authorization, .cookie, .proxyAuthorization]
    /// Fields that describe a request's content, dropped with the content when a redirect
    /// turns the request into a GET.
    /// (`Last-Modified` too, §15.4 item 4; and `Expect`, which a request without content must
    /// not send, §10.1.1.)
    private static let contentFields: [HTTPField.Name] = [
        .contentType, .contentLength, .contentEncoding, .contentLanguage, .contentLocation, .transferEncoding, .lastModified, .expect,
        .init("Digest")!, .init("Content-Digest")!, .init("Repr-Digest")!,
    ]

    /// The next request after `request` was answered `status` with a `Location` resolved to
    /// `target` (an absolute request, as ``CachingClient/request(url:method:headers:)`` builds
    /// it), and whether the body goes with it.
    ///
    /// - A 303, and a 301 or 302 to a POST, become a GET without the content and the fields that
    ///   describe it (§15.4.4: "other than GET or HEAD"; a HEAD stays a HEAD, as browsers keep it).
    /// - A hop to another origin (scheme, host or port) drops `Authorization`, `Cookie` and
    ///   `Proxy-Authorization` (§15.4: credentials for one origin are not sent to another), as
    ///   curl, browsers and URLSession do.
    static func next(after request: HTTPRequest, status: Int, to target: HTTPRequest) -> (request: HTTPRequest, keepsBody: Bool) {
        var fields = request.headerFields
        if !sameOrigin(request, target) {
            for name in credentials { fields[name] = nil }
        }
        let becomesGet = request.method != .head && (status == 303 || ([301, 302].contains(status) && request.method == .post))
        if becomesGet {
            for name in contentFields { fields[name] = nil }
        }
        let method = becomesGet ? HTTPRequest.Method.get : request.method
        return (
            HTTPRequest(method: method, scheme: target.scheme, authority: target.authority, path: target.path, headerFields: fields),
            !becomesGet
        )
    }

    /// Whether two absolute requests go to the same origin: scheme, host and port alike once
    /// normalised as cache keys are (letters' case, a default port written out).
    static func sameOrigin(_ a: HTTPRequest, _ b: HTTPRequest) -> Bool {
        guard let first = CacheKey(a).flatMap({ CacheRules.origin(of: $0.uri) }),
            let second = CacheKey(b).flatMap({ CacheRules.origin(of: $0.uri) })
        else { return false }
        return first == second
    }
}
