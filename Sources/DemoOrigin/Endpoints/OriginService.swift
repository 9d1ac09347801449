import Foundation

// MARK: - Request → response, independent of the socket layer

/// Turns each request into a response: counts it, applies the outage switch, routes it, builds
/// the endpoint's response and answers 304 when the request's preconditions hold.
///
/// The NIO handler only frames bytes; everything observable about an endpoint lives here and in
/// the `OriginService+…` files, one per family of endpoints.
struct OriginService: Sendable {
    /// Where requests are counted.
    let counter: RequestCounter
    /// Outage switch, `/sie` memory and item versions.
    let state: EndpointState
    /// The server's clock ("now"); injectable so tests can move time.
    let clock: @Sendable () -> Date
    /// Whole seconds since 1970 when the server started; fixed validators derive from it.
    let startTime: Int64

    /// Seconds since 1970 now, rounded down (HTTP dates have one-second resolution).
    var now: Int64 { Int64(clock().timeIntervalSince1970.rounded(.down)) }

    /// The complete response to `request`.
    func respond(to request: OriginRequest) -> OriginResponse {
        counter.record(target: request.target, headers: request.headers)
        if state.isOutage {
            return OriginResponse(
                status: 503, headers: [("Retry-After", "5")],
                text: "503 simulated outage: \(request.target)\n")
        }

        let route: Route
        do {
            route = try Route.parse(path: request.path)
        } catch {
            switch error {
            case .notFound(let hint):
                return OriginResponse(status: 404, text: "404 not found: \(request.target) (\(hint))\n")
            case .badRequest(let message):
                return OriginResponse(status: 400, text: "400 bad request: \(request.target): \(message)\n")
            }
        }

        let response: OriginResponse
        switch (route, request.isGetOrHead) {
        case (.item(let id), _):
            response = item(id: id, request)
        case (_, false):
            return OriginResponse(
                status: 405, headers: [("Allow", "GET, HEAD")],
                text: "405 method \(request.method) not allowed on \(request.target); use GET or HEAD\n")
        case (_, true):
            response = respondToRead(route, request)
        }
        return ConditionalRequest.isNotModified(request, response: response) ? response.notModified() : response
    }

    /// The response of a GET/HEAD endpoint other than `/items`.
    private func respondToRead(_ route: Route, _ request: OriginRequest) -> OriginResponse {
        switch route {
        case .maxAge(let seconds): maxAge(seconds, request)
        case .sMaxAge(let seconds): sMaxAge(seconds, request)
        case .noCache: noCache(request)
        case .lastModified: lastModified(request)
        case .noStore: noStore(request)
        case .privateMaxAge(let seconds): privateMaxAge(seconds, request)
        case .immutable: immutable(request)
        case .expires(let seconds): expires(seconds, request)
        case .varyLanguage: varyLanguage(request)
        case .rotating(let period): rotating(period, request)
        case .staleWhileRevalidate(let maxAge, let window): staleWhileRevalidate(maxAge, window, request)
        case .staleIfError(let maxAge, let window): staleIfError(maxAge, window, request)
        case .slow(let milliseconds): slow(milliseconds, request)
        case .large(let kilobytes): large(kilobytes, request)
        case .redirect(let status, let maxAge): redirect(status, maxAge, request)
        case .status(let code): status(code, request)
        case .auth: auth(request)
        case .cookie: cookie(request)
        case .item(let id): item(id: id, request)
        }
    }

    // MARK: Shared building blocks

    /// A 200 text response whose body names the target, carrying `headers` plus a strong ETag
    /// derived from the body when `etag` is `true`.
    func text(
        _ request: OriginRequest, _ headers: [(name: String, value: String)], etag: Bool = true,
        detail: String
    ) -> OriginResponse {
        let body = "DemoOrigin \(request.target)\n\(detail)\n"
        let validator: [(name: String, value: String)] = etag ? [("ETag", EntityTag.strong(for: body))] : []
        return OriginResponse(status: 200, headers: headers + validator, text: body)
    }

    /// `Last-Modified` for the server's start time.
    var startLastModified: (name: String, value: String) {
        ("Last-Modified", HTTPDateFormatting.format(secondsSince1970: startTime))
    }
}
