import Foundation
import HTTPTypes

/// The HTTP caching rules of RFC 9111 (with RFC 5861 and RFC 8246), as pure functions.
///
/// `CacheRules` reads headers and an injected `now`; it never touches the network, files or
/// the clock, and it holds no state beyond its configuration. Every decision carries the
/// reason a person can read, so the dashboard can say *why*.
///
/// ```swift
/// let rules = CacheRules()
/// switch rules.decide(request: request, policy: .useProtocolCachePolicy, candidates: stored, now: .now) {
/// case .fresh(let hit): serve(stored[hit.candidate])
/// case .revalidate(let r): send(rules.networkRequest(for: request, decision: .revalidate(r), policy: policy))
/// default: …
/// }
/// ```
public struct CacheRules: Sendable {
    /// Mode, heuristics and their limits.
    public var configuration: CacheRulesConfiguration

    /// Creates the rules for a configuration (default: a private cache with heuristics).
    public init(configuration: CacheRulesConfiguration = CacheRulesConfiguration()) {
        self.configuration = configuration
    }

    var isShared: Bool { configuration.mode == .shared }

    /// Status codes defined as heuristically cacheable (RFC 9110 §15.1).
    public static let heuristicallyCacheableStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Status codes whose caching requirements this cache implements (for `must-understand`).
    public static let understoodStatuses: Set<Int> = [
        200, 203, 204, 300, 301, 302, 303, 307, 308, 404, 405, 410, 414, 421, 451, 500, 501, 502, 503, 504,
    ]

    /// Methods that are safe (RFC 9110 §9.2.1): they never invalidate stored responses.
    public static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    /// Whether a status counts as an origin error for `stale-if-error` (RFC 5861 §4).
    public static func isErrorStatus(_ code: Int) -> Bool { [500, 502, 503, 504].contains(code) }

    /// The Cache-Control a request asks for, and whether `Pragma: no-cache` stands in for it.
    func requestDirectives(_ request: HTTPRequest) -> (CacheControl, pragmaNoCache: Bool) {
        let fields = request.headerFields
        if fields.contains(.cacheControl) { return (CacheControl(fields), false) }
        return (.empty, Self.pragmaNoCache(fields))
    }

    /// Whether `Pragma: no-cache` stands in for Cache-Control: the fields have no
    /// `Cache-Control` line at all (whatever its directives, one present makes Pragma ignored)
    /// and a `Pragma` member is `no-cache` (RFC 9111 §5.4). For requests that is the RFC's
    /// rule; for responses it is a compatibility choice (see `StoredResponse.pragmaNoCache`).
    static func pragmaNoCache(_ fields: HTTPFields) -> Bool {
        guard fields.contains(.pragma), !fields.contains(.cacheControl) else { return false }
        return fields[values: .pragma].contains { line in
            FieldListScanner.members(line).contains { $0.lowercased() == "no-cache" }
        }
    }
}
