// MARK: - Which URL a kind and popularity rank stand for

extension Workload {
    /// The request for endpoint `kind` at popularity `rank` (1 = hottest). The same kind and
    /// rank always give the same path (the `id` query keeps ranks apart), so popular URLs repeat
    /// and can be served from cache. Parameters vary with the rank to spread lifetimes.
    func request(kind: EndpointKind, rank: Int, generator: inout SplitMix64) -> WorkloadRequest {
        let id = "id=\(rank)"
        func pick<T>(_ choices: [T]) -> T { choices[rank % choices.count] }
        var method = "GET"
        var headers: [(name: String, value: String)] = []

        let path: String
        switch kind {
        case .maxAge: path = "/max-age/\(pick([5, 10, 30, 60, 300]))?\(id)"
        case .sMaxAge: path = "/s-maxage/30?\(id)"
        case .noCache: path = "/no-cache?\(id)"
        case .lastModified: path = "/last-modified?\(id)"
        case .noStore: path = "/no-store?\(id)"
        case .privateMaxAge: path = "/private/20?\(id)"
        case .varyLanguage:
            path = "/vary/lang?\(id)"
            let languages = configuration.acceptLanguages
            let index = Int(generator.next() % UInt64(languages.count))
            headers.append((name: "Accept-Language", value: languages[index]))
        case .rotating: path = "/rotating/\(pick([5, 10, 20]))?\(id)"
        case .immutable: path = "/immutable?\(id)"
        case .staleWhileRevalidate: path = "/swr/3/30?\(id)"
        case .staleIfError: path = "/sie/3/300?\(id)"
        case .slow: path = "/slow/\(pick([50, 150, 400]))?\(id)"
        case .large: path = "/large/\(pick([8, 64, 256]))?\(id)"
        case .redirect: path = "/redirect/\(pick([301, 302, 307, 308]))/60?\(id)"
        case .status: path = "/status/\(pick([404, 410, 500, 503]))?\(id)"
        case .items:
            path = "/items/\(rank)"
            if generator.nextUnitInterval() < configuration.itemWriteShare { method = "POST" }
        case .auth:
            path = "/auth?\(id)"
            headers.append((name: "Authorization", value: "Bearer demo-token"))
        case .cookie: path = "/cookie?\(id)"
        case .expires: path = "/expires/\(pick([10, 30, 120]))?\(id)"
        }
        return WorkloadRequest(method: method, url: baseURL + path, headers: headers, kind: kind)
    }
}
