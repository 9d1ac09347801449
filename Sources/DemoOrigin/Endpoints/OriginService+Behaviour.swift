// MARK: - Endpoints about latency, size, redirects, status codes, credentials and cookies

extension OriginService {
    /// `/slow/{ms}`: answered after `ms` milliseconds (scheduled, never blocking a thread).
    func slow(_ milliseconds: Int, _ request: OriginRequest) -> OriginResponse {
        var response = text(
            request, [("Cache-Control", "max-age=5")], etag: false, detail: "answered after \(milliseconds) ms")
        response.delayMilliseconds = milliseconds
        return response
    }

    /// `/large/{KB}`: exactly KB × 1024 bytes: a first line naming the target, then a repeating
    /// alphabet, cut to size (``GeneratedBody``, made as it is sent). Deterministic, so its ETag
    /// is derived from target and size.
    func large(_ kilobytes: Int, _ request: OriginRequest) -> OriginResponse {
        let size = kilobytes * 1024
        var response = OriginResponse(
            status: 200,
            headers: [
                ("Cache-Control", "max-age=60"), ("ETag", EntityTag.strong(for: "large \(request.target) \(size)")),
            ],
            contentType: "application/octet-stream", body: [])
        response.generated = GeneratedBody(target: request.target, size: size)
        return response
    }

    /// `/redirect/{code}/{N}`: redirects to `/max-age/N`; the permanent ones (301, 308) are
    /// cacheable for an hour.
    func redirect(_ status: Int, _ maxAge: Int, _ request: OriginRequest) -> OriginResponse {
        let location = "/max-age/\(maxAge)"
        let caching: [(name: String, value: String)] =
            status == 301 || status == 308 ? [("Cache-Control", "max-age=3600")] : []
        return OriginResponse(
            status: status, headers: [("Location", location)] + caching,
            text: "DemoOrigin \(request.target)\n\(status) redirect to \(location)\n")
    }

    /// `/status/{code}`: that status with no caching headers. 204, 205 and 304 have no body.
    func status(_ code: Int, _ request: OriginRequest) -> OriginResponse {
        let bodyless: Set<Int> = [204, 205, 304]
        var response = OriginResponse(status: code, text: "DemoOrigin \(request.target)\nstatus \(code)\n")
        if bodyless.contains(code) {
            response.body = []
            response.headers.removeAll { $0.name == "Content-Type" }
        }
        return response
    }

    /// `/auth`: 401 without an `Authorization` header; with one, 200 cacheable for a minute.
    func auth(_ request: OriginRequest) -> OriginResponse {
        guard request.header("Authorization") != nil else {
            return OriginResponse(
                status: 401, headers: [("WWW-Authenticate", "Basic realm=\"demo\"")],
                text: "401 \(request.target) needs an Authorization header\n")
        }
        return text(request, [("Cache-Control", "max-age=60")], detail: "authorized")
    }

    /// `/cookie`: sets a session cookie; private, cacheable for 30 seconds.
    func cookie(_ request: OriginRequest) -> OriginResponse {
        text(
            request, [("Set-Cookie", "session=abc; HttpOnly"), ("Cache-Control", "private, max-age=30")],
            etag: false, detail: "Set-Cookie: session=abc")
    }
}
