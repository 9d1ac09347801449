// MARK: - Endpoints about variants, changing content and stale serving

extension OriginService {
    /// `/vary/lang`: the body and ETag depend on `Accept-Language`; `Vary` says so.
    func varyLanguage(_ request: OriginRequest) -> OriginResponse {
        let language = request.header("Accept-Language").map { String($0.trimmingASCIIWhitespace()) }
        return text(
            request, [("Vary", "Accept-Language"), ("Cache-Control", "max-age=60")],
            detail: "Accept-Language: \(language ?? "(none)")")
    }

    /// `/rotating/{N}`: a new version every N seconds of the server's clock. The ETag and
    /// Last-Modified name the current version, so a 304 is only possible while it is current.
    func rotating(_ period: Int, _ request: OriginRequest) -> OriginResponse {
        let version = now / Int64(period)
        let changed = HTTPDateFormatting.format(secondsSince1970: version * Int64(period))
        let body = "DemoOrigin \(request.target)\nversion \(version) (changes every \(period) s)\n"
        return OriginResponse(
            status: 200,
            headers: [
                ("Cache-Control", "max-age=1"), ("ETag", EntityTag.strong(for: body)), ("Last-Modified", changed),
            ],
            text: body)
    }

    /// `/swr/{maxAge}/{swr}`: may be served stale for `swr` seconds while revalidating.
    func staleWhileRevalidate(_ maxAge: Int, _ window: Int, _ request: OriginRequest) -> OriginResponse {
        let policy = "max-age=\(maxAge), stale-while-revalidate=\(window)"
        return text(request, [("Cache-Control", policy)], detail: "Cache-Control: \(policy)")
    }

    /// `/sie/{maxAge}/{sie}`: the first request to each target gets 200 with
    /// `stale-if-error`; every later one gets 500, so a cache must fall back to its stale copy.
    func staleIfError(_ maxAge: Int, _ window: Int, _ request: OriginRequest) -> OriginResponse {
        guard state.isFirstRequest(toFailingTarget: request.target) else {
            return OriginResponse(
                status: 500, text: "500 deliberate failure: \(request.target) only succeeds once\n")
        }
        let policy = "max-age=\(maxAge), stale-if-error=\(window)"
        return text(request, [("Cache-Control", policy)], etag: false, detail: "Cache-Control: \(policy)")
    }
}
