// MARK: - /items/{id}: a resource that unsafe methods change

extension OriginService {
    /// `/items/{id}`: GET/HEAD return the current version (ETag and body name it), cacheable for
    /// a minute, tagged `Surrogate-Key: items item-{id}` (for purges by tag); POST, PUT and PATCH bump the version and answer 200; DELETE bumps it and
    /// answers 204. Other methods get 405. The answer to POST, PUT and PATCH says what body
    /// arrived (length and FNV-1a digest, ``ReceivedBody``).
    func item(id: String, _ request: OriginRequest) -> OriginResponse {
        switch request.method {
        case "GET", "HEAD":
            let version = state.itemVersion(id)
            return OriginResponse(
                status: 200,
                headers: [("Cache-Control", "max-age=60"), ("ETag", "\"item-\(id)-v\(version)\""), ("Surrogate-Key", "items item-\(id)")],
                text: "DemoOrigin \(request.target)\nitem \(id) version \(version)\n")
        case "POST", "PUT", "PATCH":
            let version = state.bumpItemVersion(id)
            return OriginResponse(
                status: 200,
                text: "DemoOrigin \(request.target)\nitem \(id) updated to version \(version)\nreceived \(request.body.summary)\n")
        case "DELETE":
            _ = state.bumpItemVersion(id)
            var response = OriginResponse(status: 204, text: "")
            response.headers = []
            return response
        default:
            return OriginResponse(
                status: 405, headers: [("Allow", "GET, HEAD, POST, PUT, PATCH, DELETE")],
                text: "405 method \(request.method) not allowed on \(request.target)\n")
        }
    }
}
