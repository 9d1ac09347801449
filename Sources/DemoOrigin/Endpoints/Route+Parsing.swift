// MARK: - Path → Route

extension Route {
    /// Parses a request path (without query) into a route.
    ///
    /// - Throws: ``RouteError/notFound(_:)`` for an unknown path or a wrong number of segments,
    ///   ``RouteError/badRequest(_:)`` for a malformed or out-of-range parameter.
    static func parse(path: Substring) throws(RouteError) -> Route {
        guard path.hasPrefix("/") else { throw .notFound("the path must start with '/'") }
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        let name = segments[0]
        let arguments = Array(segments.dropFirst())

        func expect(_ count: Int, _ shape: String) throws(RouteError) {
            guard arguments.count == count else { throw .notFound("did you mean \(shape)?") }
        }
        func number(_ index: Int, _ what: String, _ range: ClosedRange<Int>) throws(RouteError) -> Int {
            try parseNumber(arguments[index], what: what, range: range)
        }

        switch name {
        case "max-age":
            try expect(1, "/max-age/{N}")
            return .maxAge(seconds: try number(0, "max-age seconds", RouteLimits.seconds))
        case "s-maxage":
            try expect(1, "/s-maxage/{N}")
            return .sMaxAge(seconds: try number(0, "s-maxage seconds", RouteLimits.seconds))
        case "no-cache": try expect(0, "/no-cache"); return .noCache
        case "last-modified": try expect(0, "/last-modified"); return .lastModified
        case "no-store": try expect(0, "/no-store"); return .noStore
        case "private":
            try expect(1, "/private/{N}")
            return .privateMaxAge(seconds: try number(0, "max-age seconds", RouteLimits.seconds))
        case "vary":
            guard arguments == ["lang"] else { throw .notFound("did you mean /vary/lang?") }
            return .varyLanguage
        case "rotating":
            try expect(1, "/rotating/{N}")
            return .rotating(period: try number(0, "rotation period in seconds", RouteLimits.rotationPeriod))
        case "immutable": try expect(0, "/immutable"); return .immutable
        case "swr":
            try expect(2, "/swr/{maxAge}/{swr}")
            return .staleWhileRevalidate(
                maxAge: try number(0, "max-age seconds", RouteLimits.seconds),
                window: try number(1, "stale-while-revalidate seconds", RouteLimits.seconds))
        case "sie":
            try expect(2, "/sie/{maxAge}/{sie}")
            return .staleIfError(
                maxAge: try number(0, "max-age seconds", RouteLimits.seconds),
                window: try number(1, "stale-if-error seconds", RouteLimits.seconds))
        case "slow":
            try expect(1, "/slow/{ms}")
            return .slow(milliseconds: try number(0, "delay in milliseconds", RouteLimits.slowMilliseconds))
        case "large":
            try expect(1, "/large/{KB}")
            return .large(kilobytes: try number(0, "size in KiB", RouteLimits.largeKilobytes))
        case "redirect":
            try expect(2, "/redirect/{code}/{N}")
            let code = try number(0, "redirect status", 300...399)
            guard RouteLimits.redirectCodes.contains(code) else {
                throw .badRequest("redirect status must be 301, 302, 307 or 308, got \(code)")
            }
            return .redirect(status: code, maxAge: try number(1, "max-age seconds", RouteLimits.seconds))
        case "status":
            try expect(1, "/status/{code}")
            return .status(code: try number(0, "status code", RouteLimits.statusCodes))
        case "items":
            try expect(1, "/items/{id}")
            return .item(id: try parseItemID(arguments[0]))
        case "auth": try expect(0, "/auth"); return .auth
        case "cookie": try expect(0, "/cookie"); return .cookie
        case "expires":
            try expect(1, "/expires/{N}")
            return .expires(seconds: try number(0, "Expires offset in seconds", RouteLimits.seconds))
        default:
            throw .notFound("no endpoint at this path; `cachescope origin` lists them")
        }
    }

    // MARK: Parameters

    /// A whole number of at most ten ASCII digits within `range`.
    static func parseNumber(_ text: Substring, what: String, range: ClosedRange<Int>) throws(RouteError) -> Int {
        let limits = "\(range.lowerBound) to \(range.upperBound)"
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw .badRequest("\(what) must be a whole number from \(limits), got '\(text)'")
        }
        guard text.count <= 10, let value = Int(text), range.contains(value) else {
            throw .badRequest("\(what) must be from \(limits), got \(text)")
        }
        return value
    }

    /// An item identifier: 1 to 64 of `A-Z a-z 0-9 . _ -`.
    static func parseItemID(_ text: Substring) throws(RouteError) -> String {
        let allowed = text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        guard !text.isEmpty, text.count <= RouteLimits.itemIDLength, allowed else {
            throw .badRequest(
                "item id must be 1 to \(RouteLimits.itemIDLength) letters, digits, '.', '_' or '-', got '\(text)'")
        }
        return String(text)
    }
}
